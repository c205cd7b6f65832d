"""Drawn phone screens for the synthetic AndroidControl sample (:mod:`sftdata.synthetic.sample`).

:mod:`.canvas` draws widgets and records matching accessibility nodes; :mod:`.art` draws icons and pictures;
:mod:`.style` holds colours and CJK faces; :mod:`.catalog` the apps' content; one module per app
(:mod:`.launcher`, :mod:`.mall`, :mod:`.settings`, :mod:`.gallery`, :mod:`.messages`); :mod:`.state` maps a
:class:`State` to its page and :func:`render` draws it.

>>> s = render(State(), (540, 1200))
>>> png, forest = s.encode()
>>> png[:4], s.keys["app:Settings"].text
(b'\\x89PNG', 'Settings')
"""
from .canvas import Node, Screen
from .catalog import CONVOS, LAUNCHER, N_PHOTOS, SETTINGS_ROWS, SUBPAGES, TABS, product
from .state import FIRST_PAGE, State, render

__all__ = ["CONVOS", "FIRST_PAGE", "LAUNCHER", "N_PHOTOS", "Node", "SETTINGS_ROWS", "SUBPAGES", "Screen", "State",
           "TABS", "product", "render"]
