"""Running what the official Java tools compute without Java: locating the jars shipped in
pycocoevalcap, reading constants from their class files, Java's lowercasing, and the switch
between our ports and the jars (``implementation``)."""
