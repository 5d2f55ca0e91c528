"""speechkit: WAV decoding, features, a padding collate, a small CTC model and its loop."""
