"""Sparring partners for ``bench/ai_strength.py``: players that are not levels of the bot but
opponents every change to our players is measured against (issues 20 and 31). Each is a
written plan of a style we do not share (the module docstring says it); the rules-of-thumb
members share :mod:`bench.sparring.base` (the plan as a player, and the exact endgame).

* ``collector``: takes cheap attacks early, keeps trumps, builds ranks, and late leads pairs
  and triples with a trump in reserve (the plan issue 31 read in ``hard``'s lost games);
* ``hoarder``: the trump hoarder, the early-game rule of a public program that beat ``hard``;
* ``spender``: beats everything it can, throws in every plain card;
* ``transferer``: transfers whenever it can (on Podkidnoy it is ``normal``: a control);
* ``hard_v1``: ``hard`` as it was before issue 20, frozen (see its docstring for why a copy).
"""
