"""The box itself, apart from the games: its Wi-Fi (``wifi``), its updates (``update``) and
the addresses phones reach it at (``address``).

What lives here: small interfaces over the operating system's tools (NetworkManager's
``nmcli``, ``git`` and ``systemctl``, the release files), each with the exact commands it
runs documented, and the errors they answer (:class:`~companion.games.base.MandalaError`
subclasses with plain messages, made with ``.said(say(...))`` so the panel shows them in the
reader's language; what a tool itself said, nmcli's or git's line, goes in as a value and
stays English).

What must not: anything of the panel (Flask), the table or the firmware. The package imports
the standard library, ``companion.games.base`` (for the error root) and ``companion.phrases``
only; the web layer and the process wiring (``companion.serve``, ``companion.cli``) use it,
never the other way round.
"""
