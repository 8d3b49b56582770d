"""Analyses beside the ranking metrics: textual statistics, D-levels, system-output
similarity and the train/test overlap of a split."""
