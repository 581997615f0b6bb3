"""Words for a shell command line, quoted as bash's printf %q quotes them
(a reproducer reads the same whichever planner wrote it)."""

# Backslashed anywhere; '#' and '~' only at the start of a word.
_SPECIAL = set(" \t\n!\"$&'()*,;<>?[\\]^`{|}")
_ANSI = {"\a": "\\a", "\b": "\\b", "\x1b": "\\E", "\f": "\\f", "\n": "\\n",
         "\r": "\\r", "\t": "\\t", "\v": "\\v", "\\": "\\\\", "'": "\\'"}


def _printable(c):
    return " " <= c <= "~" or (c > "\x7f" and c.isprintable())


def q(word):
    if word == "":
        return "''"
    if not all(_printable(c) for c in word):
        out = []
        for c in word:
            if c in _ANSI:
                out.append(_ANSI[c])
            elif _printable(c):
                out.append(c)
            else:
                out.extend("\\%03o" % b for b in c.encode("utf-8"))
        return "$'" + "".join(out) + "'"
    out = []
    for i, c in enumerate(word):
        if c in _SPECIAL or (i == 0 and c in "#~"):
            out.append("\\")
        out.append(c)
    return "".join(out)
