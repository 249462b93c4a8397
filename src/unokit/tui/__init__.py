"""``unokit play``: a full match in the terminal (Textual), one human against bots.

:mod:`.session` runs the match and narrates it; :mod:`.app` draws it and reads the keys;
:mod:`.help` holds the rules texts shown by the help key (and linked from the docs).
"""
