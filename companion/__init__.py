"""Mandala Companion: game engines, the table service and the phone panel.

What lives here: ``games/`` (pure rules engines, standard library only), the table service
(the one mutable object that joins sensors, engines, storage, LEDs and the panel), ``web/``
(the Flask panel) and ``cli`` (the ``mandala`` command).

What must not: anything that touches pins or LED hardware (that is ``firmware``), and any
knowledge of whether the hardware is real or emulated.
"""
