"""The words a player reads, in every language, for every front end.

- :mod:`unokit.text.i18n`: the gettext catalogues (``text/locale/<lang>/LC_MESSAGES/unokit.po``
  and the compiled ``.mo`` beside each) and the :class:`~unokit.text.i18n.Translator`;
- :mod:`unokit.text.events`: the words for every event as one table of data, and its
  interpreter (the terminal's log tells with it; the server sends it to the browser's);
- :mod:`unokit.text.help`: the rules help of each edition in Markdown
  (``text/help/<lang>/<edition>.md``), which the terminal game shows and the server serves.

The terminal (:mod:`unokit.tui`), the commands and the server (:mod:`unokit.server`) read them
from here; none of them reaches into another's package for words.
"""
