"""The tools' contract: the envelope, errors, argument models, validation and the generated contract.json."""
