"""Pure core: no boto3, no network, no clock reads. Every function takes what it needs."""
