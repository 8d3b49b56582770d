"""Analysis of human judgements: RankME + TrueSkill, Direct Assessment, ROSE, pairwise preference
(Bradley-Terry), agreement (Krippendorff's alpha), metric correlation.

Pure data in, tables out: nothing here imports the web app, so an organiser can run the same
analysis offline with ``nlg-human``.
"""
