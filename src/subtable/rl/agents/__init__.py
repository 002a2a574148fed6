"""Trained agents shipped with subtable: ``<game>-<seats>.npz`` (see :mod:`subtable.bots.agent`).

Each file is an exported policy (:mod:`subtable.rl.policy`) that ``python -m subtable.rl.train``
reproduces; its ``meta`` says how it was trained.
"""
