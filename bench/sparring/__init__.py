"""Sparring partners for ``bench/ai_strength.py``: players that are not levels of the bot but
opponents every change to our players is measured against (issue 20).

* ``hoarder``: the trump hoarder, the early-game rule of a public program that beat ``hard``;
* ``hard_v1``: ``hard`` as it was before issue 20, frozen (see its docstring for why a copy).
"""
