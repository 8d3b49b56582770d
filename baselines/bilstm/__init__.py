"""Char-level bi-LSTM DRS-to-text baseline."""
