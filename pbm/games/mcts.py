"""Monte Carlo tree search (UCT with a solver) on the game contract, for the bots of games/bots.py.

A search grows a tree of moves from the bot's position, one iteration per playout: it walks
down the tree by UCB1, adds one untried move, plays random moves from there to the end of
the game (`random_move`, `play`, `result`) and credits the result, along the path, to the
seat that chose each edge. It plays the move it tried most.

With nothing hidden, the tree also proves what it can (MCTS-Solver): a position where the
seat to move has a winning move is a win for it, one where every move is proven is worth
the best of them. A proven winning move at the root is played at once and proven losing
moves are never chosen. A node lists its moves when it is visited a second time, and then
plays each once to see which end the game; the root does so at once, and the move chosen
has always been looked at: so a win in one is never missed, and a move that lets the
opponent win at once is never played while another does not.

With hidden information the bot has only its seat's view: each iteration draws a whole state
the seat cannot tell from the real one (`Game.sample_state`) and walks the tree over the
moves legal in that state (information-set MCTS: a child's UCB counts only the iterations it
was legal in). Proofs need the true position, so this search proves nothing.

Seats to move together (a simultaneous step) choose one after another inside the tree: the
bot's own seat first at the root, then in seat order; each knows the choices before it, so
the bot assumes the worst, an opponent who answers its choice.

The budget is work: iterations, and optionally positions played to, so the same seed gives
the same move anywhere; the `seconds` cap only cuts a search short on a machine too slow
for its budget.
"""

from __future__ import annotations

import math
import random
import sys
import time
from dataclasses import dataclass
from itertools import islice
from typing import Any

from pbm.games.base import AnyGame, Outcome

# What the end of a game is worth to each seat, by seat: 1 a win, 0 a loss, 1/2 a draw.
Scores = tuple[float, ...]
WIN, LOSS, DRAW = 1.0, 0.0, 0.5

WIDE = 400  # a position with more legal moves than this searches a sample of them...
SAMPLE = 100  # ...this many random legal moves (duplicates dropped)
CHECK_EVERY = 16  # iterations between two looks at the clock


@dataclass(frozen=True)
class MCTSBot:
    """UCT with `playouts` iterations a move, each a random playout to the end of the game.

    `positions`, if set, also bounds the work of a search: the positions it plays to (in
    playouts, and looking ahead from each node) are counted, and the search stops once it
    has played that many, so that games of long playouts get fewer of them.
    `exploration` is UCB1's constant (rewards are 0..1). `playout_cap` cuts a playout after
    that many moves and counts it a draw (None: play every playout to the end).
    """

    strength: str
    playouts: int
    positions: int | None = None
    exploration: float = 0.7
    playout_cap: int | None = None

    @property
    def method(self) -> str:
        if self.positions is None:
            return f"Monte Carlo tree search, {self.playouts:,} playouts a move"
        return (f"Monte Carlo tree search, {self.playouts:,} playouts a move"
                f" (fewer where they are long: {self.positions:,} positions at most)")

    def choose(self, game: AnyGame, view: Any, seat: int, rng: random.Random,
               seconds: float) -> Any:
        deadline = time.perf_counter() + seconds
        search: _Search = _InfoSetSearch(self, game, view, seat, rng) if game.info.hidden \
            else _SolverSearch(self, game, view, seat, rng)
        if search.decided is not None:
            return search.decided
        positions = sys.maxsize if self.positions is None else self.positions
        for done in range(self.playouts):
            if done % CHECK_EVERY == CHECK_EVERY - 1 and time.perf_counter() > deadline:
                break
            if search.iterate() or search.played >= positions:
                break
        return search.best_move()


class _Search:
    """What both searches share: the moves of a node, playouts and their scores, the work."""

    def __init__(self, bot: MCTSBot, game: AnyGame, seat: int, rng: random.Random) -> None:
        self.game = game
        self.seat = seat
        self.rng = rng
        self.exploration = bot.exploration
        self.cap = sys.maxsize if bot.playout_cap is None else bot.playout_cap
        self.players = game.info.players
        self.played = 0  # positions played to so far: the work done
        # Set when there is nothing to search: the only legal move, a win in one.
        self.decided: Any = None

    def iterate(self) -> bool:
        """One iteration: select, expand, play out, back up. True once the search is done."""
        raise NotImplementedError

    def best_move(self) -> Any:
        raise NotImplementedError

    def moves(self, state: Any, seat: int) -> list[Any]:
        """The legal moves of `seat`, or a random sample of them where there are too many."""
        moves = list(islice(self.game.legal_moves(state, seat), WIDE + 1))
        if len(moves) <= WIDE:
            return moves
        notation, random_move = self.game.notation, self.game.random_move
        drawn: dict[str, Any] = {}
        for _ in range(SAMPLE):
            move = random_move(state, seat, self.rng)
            drawn.setdefault(notation(move), move)
        return list(drawn.values())

    def scores(self, outcome: Outcome | None) -> Scores:
        """What `outcome` is worth to each seat; None (a game cut short) is a draw."""
        if outcome is None or not outcome.winners:
            return (DRAW,) * self.players
        return tuple(WIN if seat in outcome.winners else LOSS for seat in range(self.players))

    def playout(self, state: Any) -> Scores:
        """Random moves from `state` to the end of the game (or the cap), scored."""
        to_move, play, random_move = self.game.to_move, self.game.play, self.game.random_move
        rng = self.rng
        for moves in range(self.cap):
            seats = to_move(state)
            if not seats:
                self.played += moves
                return self.scores(self.game.result(state))
            seat = min(seats)
            state = play(state, seat, random_move(state, seat, rng))
        self.played += self.cap
        return self.scores(None)


class _Node:
    """A position of the solver's tree, reached by `move` chosen by seat `chooser`."""

    __slots__ = ("state", "move", "chooser", "seat", "untried", "children", "visits", "reward",
                 "proven")

    def __init__(self, state: Any, move: Any, chooser: int, seat: int) -> None:
        self.state = state
        self.move = move
        self.chooser = chooser
        self.seat = seat  # the seat that chooses here; -1 once the game is over
        # Legal moves with no child yet, taken from the end; None until the node is opened.
        self.untried: list[Any] | None = None
        self.children: list[_Node] = []
        self.visits = 0
        self.reward = 0.0  # the chooser's scores summed over the playouts through here
        self.proven: Scores | None = None  # the exact worth under best play, once known


class _SolverSearch(_Search):
    """UCT with MCTS-Solver on a position the bot sees whole."""

    def __init__(self, bot: MCTSBot, game: AnyGame, state: Any, seat: int,
                 rng: random.Random) -> None:
        super().__init__(bot, game, seat, rng)
        if seat not in game.to_move(state):
            raise ValueError(f"seat {seat} is not to move")
        self.root = self.node(state, None, -1, seat)
        self.open(self.root)
        assert self.root.untried is not None
        if self.root.proven is not None or len(self.root.untried) + len(self.root.children) == 1:
            self.decided = self.best_move()

    def node(self, state: Any, move: Any, chooser: int, seat: int | None = None) -> _Node:
        """A leaf for `state`, reached by `chooser`'s `move`; proven if the game is over."""
        seats = self.game.to_move(state)
        if seats:
            return _Node(state, move, chooser, min(seats) if seat is None else seat)
        node = _Node(state, move, chooser, -1)
        node.untried = []
        node.proven = self.scores(self.game.result(state))
        return node

    def open(self, node: _Node) -> None:
        """List the moves of `node` (on its second visit: most leaves never need them), and
        make a proven child of each that ends the game at once: so a move that wins at
        once proves `node` won, and a move is never chosen that lets the opponent win at
        once without this node having been looked at."""
        game, seat, state = self.game, node.seat, node.state
        moves = self.moves(state, seat)
        self.rng.shuffle(moves)
        self.played += len(moves)
        untried = []
        for move in moves:
            after = game.play(state, seat, move)
            scores = None if game.to_move(after) else self.scores(game.result(after))
            if scores is None or scores[seat] == DRAW:  # a draw is tried like any move
                untried.append(move)
                continue
            child = _Node(after, move, seat, -1)
            child.untried = []
            child.proven = scores
            node.children.append(child)
        node.untried = untried
        self.settle(node)

    def iterate(self) -> bool:
        node = self.root
        path = [node]
        while node.proven is None:
            if node.untried is None:
                self.open(node)
            elif node.untried:
                move = node.untried.pop()
                self.played += 1
                child = self.node(self.game.play(node.state, node.seat, move), move, node.seat)
                node.children.append(child)
                path.append(child)
                node = child
                break
            else:
                node = self.select(node)
                path.append(node)
        scores = self.playout(node.state) if node.proven is None else node.proven
        for step in path:
            step.visits += 1
            if step.chooser >= 0:
                step.reward += scores[step.chooser]
        if node.proven is not None:
            for step in reversed(path[:-1]):
                if not self.settle(step):
                    break
        return self.root.proven is not None

    def select(self, node: _Node) -> _Node:
        """The child with the highest UCB1, never one proven lost for the seat to move."""
        seat = node.seat
        explore = self.exploration * math.sqrt(math.log(node.visits))
        best, best_value = None, -math.inf
        for child in node.children:
            if child.proven is not None and child.proven[seat] == LOSS:
                continue
            visits = child.visits
            value = child.reward / visits + explore / math.sqrt(visits)
            if value > best_value:
                best, best_value = child, value
        assert best is not None, "a node whose every move loses is proven"
        return best

    @staticmethod
    def settle(node: _Node) -> bool:
        """Prove `node` from its children if they decide it; True if it is proven now: a
        move that wins for the seat to move, or every move proven (worth the best)."""
        seat = node.seat
        best: Scores | None = None
        undecided = node.untried is None or bool(node.untried)
        for child in node.children:
            proven = child.proven
            if proven is None:
                undecided = True
            elif proven[seat] == WIN:
                node.proven = proven
                return True
            elif best is None or proven[seat] > best[seat]:
                best = proven
        if undecided or best is None:
            return False
        node.proven = best
        return True

    def best_move(self) -> Any:
        """The most tried move not proven lost, once its replies have been looked at."""
        root, seat = self.root, self.root.seat
        assert root.untried is not None
        while not self.settle(root):
            alive = [c for c in root.children if c.proven is None or c.proven[seat] != LOSS]
            if not alive:  # every move tried loses: try one more
                move = root.untried.pop()
                root.children.append(self.node(self.game.play(root.state, seat, move), move, seat))
                continue
            best = max(alive, key=lambda c: (c.visits, c.reward))
            if best.untried is not None:
                return best.move
            self.open(best)
        # Won: the winning move. Drawn: a drawing one. Lost: the most stubborn one.
        assert root.proven is not None
        value = root.proven[seat]
        proven = [c for c in root.children if c.proven is not None and c.proven[seat] == value]
        return max(proven, key=lambda c: c.visits).move


class _InfoNode:
    """A node of the information-set tree: the moves chosen to get here, not a position."""

    __slots__ = ("move", "chooser", "children", "visits", "reward", "available")

    def __init__(self, move: Any, chooser: int) -> None:
        self.move = move
        self.chooser = chooser
        self.children: dict[tuple[int, str], _InfoNode] = {}  # by (chooser, notation)
        self.visits = 0
        self.reward = 0.0
        self.available = 1  # iterations in which its move was legal at its parent


class _InfoSetSearch(_Search):
    """Single-observer information-set MCTS: a fresh determinisation every iteration."""

    def __init__(self, bot: MCTSBot, game: AnyGame, view: Any, seat: int,
                 rng: random.Random) -> None:
        super().__init__(bot, game, seat, rng)
        self.view = view
        # The seat's own moves do not depend on what is hidden from it: any sample has them.
        state = game.sample_state(view, seat, rng)
        if seat not in game.to_move(state):
            raise ValueError(f"seat {seat} is not to move")
        self.root = _InfoNode(None, -1)
        self.root_moves = [((seat, game.notation(m)), m) for m in self.moves(state, seat)]
        if len(self.root_moves) == 1:
            self.decided = self.root_moves[0][1]

    def iterate(self) -> bool:
        game, rng = self.game, self.rng
        state = game.sample_state(self.view, self.seat, rng)
        node, legal = self.root, self.root_moves
        path = []
        while True:
            fresh = [(key, move) for key, move in legal if key not in node.children]
            if fresh:
                key, move = fresh[rng.randrange(len(fresh))]
                node.children[key] = child = _InfoNode(move, key[0])
                path.append(child)
                self.played += 1
                scores = self.playout(game.play(state, key[0], move))
                break
            key, move = self.select(node, legal)
            node = node.children[key]
            path.append(node)
            state = game.play(state, key[0], move)
            self.played += 1
            seats = game.to_move(state)
            if not seats:
                scores = self.scores(game.result(state))
                break
            seat = min(seats)
            legal = [((seat, game.notation(m)), m) for m in self.moves(state, seat)]
        self.root.visits += 1
        for step in path:
            step.visits += 1
            step.reward += scores[step.chooser]
        return False

    def select(self, node: _InfoNode,
               legal: list[tuple[tuple[int, str], Any]]) -> tuple[tuple[int, str], Any]:
        """The legal move whose child has the highest UCB1 over the iterations it was legal
        in (every one of them has a child)."""
        best, best_value = legal[0], -math.inf
        for key, move in legal:
            child = node.children[key]
            child.available += 1
            value = child.reward / child.visits + self.exploration * math.sqrt(
                math.log(child.available) / child.visits)
            if value > best_value:
                best, best_value = (key, move), value
        return best

    def best_move(self) -> Any:
        return max(self.root.children.values(), key=lambda c: (c.visits, c.reward)).move
