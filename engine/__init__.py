"""Cadogan's rules engine: cards, rules as data, tables, moves, checks. Pure Python, no imports of ours."""

from engine.cards import Card, Suit
from engine.games import GAMES, find_game
from engine.moves import Move
from engine.rules import Game
from engine.table import Outcome, Stage, Table

__all__ = ["GAMES", "Card", "Game", "Move", "Outcome", "Stage", "Suit", "Table", "find_game"]
