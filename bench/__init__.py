"""`make bench`: cronbell's performance figures, each measured against its floor in the same run."""
