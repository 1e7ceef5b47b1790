//! The MCTS tree: an arena of nodes in `Vec`s, with UCT selection, expansion, backup,
//! the MCTS-Solver's proofs and evaluator guidance ([`guide`]).
//!
//! # Layout
//!
//! Nodes live in one `Vec` and refer to each other by `u32` index, with no per-node
//! allocation. The root is always index 0. A decision node's children form a singly
//! linked list (`first_child`, then each child's `next_sibling`), so a child is created
//! only when an iteration first tries its move and costs one slot: a decision can have
//! hundreds of moves, most never tried. A chance node's children are one contiguous
//! block, one slot per outcome in outcome order, allotted when its outcomes are
//! generated; a slot stays *unborn* until an iteration first draws its outcome. So the
//! child of a drawn outcome is found by its index, not by walking a list of nodes
//! scattered over the arena (in a dice game, one chance node every other ply, such a
//! walk would dominate selection); outcomes are few, so the unborn slots cost little.
//!
//! A chance node whose outcomes are equally likely (a die) keeps no outcomes in the
//! arena ([`UNIFORM`]): its slots hold the outcomes, and a draw below their number
//! picks the slot, so selection reads neither weights nor a second array there.
//!
//! A decision node with at most [`BLOCK_MOVES`] moves keeps its children in a block
//! too, allotted with its moves: slot `k` is the child of the `k`-th move of its slice,
//! and the first `tried` slots are born. Selection reads every child of a decision
//! node, and in a list each child's address is known only once its older sibling has
//! been read, so a tree larger than the cache waited for one miss after another; a
//! block's children are all requested at once. Children are still visited newest
//! first (slot `tried - 1` down to 0), the order of a list, so a block changes no
//! selection. A node with more moves keeps its list, which costs no unborn slots.
//!
//! A decision node's legal moves are generated once, the second time an iteration
//! passes through it (a leaf that is never revisited never pays for them), into a
//! shared move arena; the node keeps the start and length of its slice. The first
//! `tried` entries of the slice are the moves that have a child; an expansion draws one
//! of the untried ones uniformly at random and swaps it to position `tried`. A chance
//! node keeps its outcomes with *cumulative* weights in a second arena, so sampling an
//! outcome by weight is one random number and a short scan; its children are created
//! on demand, one per outcome drawn.
//!
//! # Values
//!
//! Every node sums the rewards of the iterations through it from **seat 0's** view, in
//! [-1, 1]. A decision node of seat `p` reads its children's means with the sign of `p`,
//! so two consecutive decisions of one seat (Invector's pie swap, a Pig turn) need no
//! special case: the sign follows the seat, never the ply parity.
//!
//! # Proofs (MCTS-Solver, Winands, Björnsson and Saito 2008)
//!
//! A finished game is proven by its outcome. With the solver on, after an iteration
//! reaches a proven node, backup tries to prove each node above it, stopping at the
//! first that stays unproven: a decision node of seat `p` is proven a win for `p` as
//! soon as one child is; once all its moves have children and all are proven, it takes
//! the best of their results for `p` (so a node whose moves all lose is a loss, and
//! draws are proven too). A chance node is proven only when every outcome has a child
//! and all are proven with the same result; otherwise its value stays a mean. Proven
//! nodes are not descended into: an iteration that reaches one backs up its exact
//! reward. Each proof records the length in plies of the line that proves it (shortest
//! known win, longest loss), reported as `Value::Win(n)` / `Value::Loss(n)`: the length
//! of the line found, not necessarily the game's shortest.

use agon_engine::{Evaluator, Outcome, Seat, State, Turn};

use super::uct_counts::UctCounts;
use crate::agent::AgentRng;
use crate::draws::Frugal;
pub(crate) use guide::Guide;

pub(crate) mod guide;
mod outcomes;
mod proof;
mod reroot;

pub(super) use reroot::find_new_root;

/// "No node": the end of a child list.
pub(crate) const NONE: u32 = u32::MAX;
/// `num_moves` of a node whose moves or outcomes have not been generated yet.
pub(super) const UNEXPANDED: u16 = u16::MAX;
/// `actor` of a chance node (a decision node holds its seat, 0 or 1).
pub(super) const CHANCE: u8 = 2;
/// `actor` of a finished game.
pub(super) const OVER: u8 = 3;
/// `actor` of a chance node's child slot that no iteration has reached yet.
pub(super) const UNBORN: u8 = 4;
/// `moves` of a chance node whose outcomes are equally likely: it keeps none in the
/// outcome arena (the module docs).
pub(super) const UNIFORM: u32 = u32::MAX;
/// The most moves of a decision node whose children form a block (module docs): the
/// unborn slots of a block cost little when moves are this few.
pub(super) const BLOCK_MOVES: u16 = 4;

/// What is proven about a node, from the game's point of view (not a seat's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Proof {
    /// Nothing: the node's value is the mean of its rewards.
    Unknown,
    /// Seat 0 wins with best play.
    Seat0Wins,
    /// Seat 1 wins with best play.
    Seat1Wins,
    /// A draw with best play.
    Draw,
}

impl Proof {
    /// The proof of a finished game.
    pub(super) fn of(outcome: Outcome) -> Proof {
        match outcome {
            Outcome::Win(0) => Proof::Seat0Wins,
            Outcome::Win(_) => Proof::Seat1Wins,
            Outcome::Draw => Proof::Draw,
        }
    }

    /// The reward of a proven result from seat 0's view (0 for `Unknown`, never asked).
    pub(crate) fn reward(self) -> f64 {
        match self {
            Proof::Seat0Wins => 1.0,
            Proof::Seat1Wins => -1.0,
            Proof::Draw | Proof::Unknown => 0.0,
        }
    }

    /// The result for `seat`: 1 win, 0 draw, -1 loss (`None` if unproven).
    pub(crate) fn for_seat(self, seat: Seat) -> Option<i8> {
        match self {
            Proof::Unknown => None,
            Proof::Draw => Some(0),
            Proof::Seat0Wins => Some(if seat == 0 { 1 } else { -1 }),
            Proof::Seat1Wins => Some(if seat == 1 { 1 } else { -1 }),
        }
    }
}

/// One node of the tree (see the module docs for the layout).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node<M> {
    /// Sum of the rewards of the iterations through this node, from seat 0's view.
    pub(crate) total: f64,
    /// Completed iterations through this node.
    pub(crate) visits: u32,
    /// A decision node's most recently created child, a chance node's first child slot
    /// (of `num_moves`), or [`NONE`].
    pub(crate) first_child: u32,
    /// The next child of this node's parent (a decision node), or [`NONE`].
    pub(crate) next_sibling: u32,
    /// Start of this node's moves (decision) or outcomes (chance) in their arena.
    pub(super) moves: u32,
    /// How many moves or outcomes it has ([`UNEXPANDED`] before they are generated).
    pub(super) num_moves: u16,
    /// How many of them have a child (for a chance node: born slots).
    pub(super) tried: u16,
    /// Length of the proving line, once proven.
    pub(crate) plies: u16,
    /// Seat to move (0 or 1), [`CHANCE`], [`OVER`] or [`UNBORN`].
    pub(super) actor: u8,
    /// What is proven here (finished games always, others only with the solver on).
    pub(crate) proof: Proof,
    /// The evaluator's value of this position at its creation, seat 0's view, in
    /// [`guide`]'s fixed point (0 unless guidance is on).
    pub(crate) heuristic: i16,
    /// The implicit minimax value `v_τ` ([`guide`]), seat 0's view, in the same fixed
    /// point (0 unless guidance is on).
    pub(crate) minimax: i16,
    /// The move or outcome that leads here from the parent (meaningless at the root).
    pub(crate) mv: M,
}

impl<M> Node<M> {
    /// An unvisited node without children or moves, reached by `mv`.
    pub(super) fn fresh(mv: M, actor: u8, proof: Proof) -> Self {
        Node {
            total: 0.0,
            visits: 0,
            first_child: NONE,
            next_sibling: NONE,
            moves: 0,
            num_moves: UNEXPANDED,
            tried: 0,
            plies: 0,
            actor,
            proof,
            heuristic: 0,
            minimax: 0,
            mv,
        }
    }

    /// The seat deciding here, if this is a decision node.
    pub(crate) fn seat(&self) -> Option<Seat> {
        (self.actor < CHANCE).then_some(self.actor as Seat)
    }

    /// Whether this node's children form a block: a chance node's outcomes, or a
    /// decision node's few moves (the module docs), once generated.
    pub(super) fn has_block(&self) -> bool {
        self.num_moves != UNEXPANDED && (self.actor == CHANCE || self.num_moves <= BLOCK_MOVES)
    }
}

/// +1 for seat 0, -1 for seat 1: turns a seat-0 reward into `seat`'s.
#[inline]
fn sign(seat: Seat) -> f64 {
    if seat == 0 {
        1.0
    } else {
        -1.0
    }
}

/// The fixed settings that selection and backup need.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Settings {
    /// UCT exploration constant.
    pub(crate) c: f64,
    /// Whether proofs propagate and steer selection.
    pub(crate) solver: bool,
    /// Nodes the arena may hold; beyond it leaves are evaluated without expanding.
    pub(crate) max_nodes: usize,
    /// Evaluator guidance: progressive bias and implicit minimax backups ([`guide`]).
    pub(crate) guide: Guide,
}

/// Where an iteration's selection ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Leaf {
    /// A finished game or a proven node: this exact reward (seat 0's view).
    Exact(f64),
    /// A new node (or one the full arena could not expand): evaluate the state reached.
    Evaluate,
}

/// The search tree of one MCTS (see the module docs). The arenas keep their capacity
/// between searches, so a warmed-up agent allocates nothing per iteration.
#[derive(Clone, Debug)]
pub(crate) struct Tree<S: State> {
    pub(crate) nodes: Vec<Node<S::Move>>,
    pub(super) moves: Vec<S::Move>,
    /// Outcomes with cumulative weights (the last one's is the total).
    pub(super) outcomes: Vec<(S::Move, u32)>,
    /// The position at the root (`None` before the first search).
    root_state: Option<S>,
    /// Whether a chance node's block of children did not fit in the arena (see
    /// [`Tree::is_full`]).
    refused: bool,
    /// Spare arenas and a work list for re-rooting, kept to reuse their capacity.
    spare_nodes: Vec<Node<S::Move>>,
    spare_moves: Vec<S::Move>,
    spare_outcomes: Vec<(S::Move, u32)>,
    work: Vec<(u32, u32)>,
    /// Selection's factors of visit counts.
    uct_counts: UctCounts,
}

impl<S: State> Default for Tree<S> {
    fn default() -> Self {
        Tree {
            nodes: Vec::new(),
            moves: Vec::new(),
            outcomes: Vec::new(),
            root_state: None,
            refused: false,
            spare_nodes: Vec::new(),
            spare_moves: Vec::new(),
            spare_outcomes: Vec::new(),
            work: Vec::new(),
            uct_counts: UctCounts::default(),
        }
    }
}

impl<S: State> Tree<S> {
    /// The root node.
    pub(crate) fn root(&self) -> &Node<S::Move> {
        &self.nodes[0]
    }

    /// The position at the root (`None` before the first search).
    pub(super) fn root_state(&self) -> Option<&S> {
        self.root_state.as_ref()
    }

    /// Makes `state` the root position of nodes written for it.
    pub(super) fn set_root_state(&mut self, state: &S) {
        self.root_state = Some(state.clone());
    }

    /// Whether the arena of at most `max_nodes` nodes is full, or refused a chance
    /// node's block of children for lack of room (so that node stays a leaf).
    pub(crate) fn is_full(&self, max_nodes: usize) -> bool {
        self.refused || self.nodes.len() >= max_nodes
    }

    /// Reserves the arena for `iterations` more iterations from `state`'s game (capped
    /// at `max_nodes`), so that a search of known length never copies a grown arena:
    /// an iteration adds at most one node and one block of at most
    /// [`State::max_moves`] slots. The reservation is address space; the pages are
    /// only touched as nodes are written.
    pub(crate) fn reserve_for(&mut self, iterations: u64, state: &S, max_nodes: usize) {
        let per_iteration = 1 + state.max_moves() as u64;
        let wanted = iterations
            .saturating_mul(per_iteration)
            .min(max_nodes as u64) as usize;
        self.nodes.reserve(wanted.saturating_sub(self.nodes.len()));
    }

    /// Empties the tree and makes `state` its root. `state` must not be finished (the
    /// agent never builds a tree for a finished game).
    pub(crate) fn reset(&mut self, state: &S) {
        self.refused = false;
        self.nodes.clear();
        self.moves.clear();
        self.outcomes.clear();
        // The root's `mv` is never read; any move of the right type will do, and a
        // position that is not over has at least one decision or outcome.
        let placeholder = match state.turn() {
            Turn::Chance => {
                state.chance_outcomes(&mut self.outcomes);
                let m = self.outcomes[0].0;
                self.outcomes.clear();
                m
            }
            _ => {
                state.legal_moves(&mut self.moves);
                let m = self.moves[0];
                self.moves.clear();
                m
            }
        };
        self.push_node(placeholder, state);
        self.root_state = Some(state.clone());
    }

    /// Appends a new unvisited node for the position `state`, reached by `mv`.
    fn push_node(&mut self, mv: S::Move, state: &S) -> u32 {
        let index = self.nodes.len() as u32;
        self.nodes.push(Self::new_node(mv, state));
        index
    }

    /// An unvisited node for the position `state`, reached by `mv`.
    fn new_node(mv: S::Move, state: &S) -> Node<S::Move> {
        let (actor, proof) = match state.turn() {
            Turn::Seat(s) => (s as u8, Proof::Unknown),
            Turn::Chance => (CHANCE, Proof::Unknown),
            Turn::Over => {
                let outcome = state.outcome().expect("a finished game has an outcome");
                (OVER, Proof::of(outcome))
            }
        };
        Node::fresh(mv, actor, proof)
    }

    /// A chance node's child slot for `outcome`, not reached yet.
    pub(super) fn unborn(outcome: S::Move) -> Node<S::Move> {
        Node::fresh(outcome, UNBORN, Proof::Unknown)
    }

    /// Creates the child of decision node `parent` reached by `mv` (already applied to
    /// `state`), its move `tried` of its slice: in its block's slot, or at the head of
    /// its list.
    fn add_child(&mut self, parent: u32, mv: S::Move, state: &S) -> u32 {
        let p = self.nodes[parent as usize];
        if p.has_block() {
            let child = p.first_child + u32::from(p.tried);
            self.nodes[child as usize] = Self::new_node(mv, state);
            self.nodes[parent as usize].tried += 1;
            return child;
        }
        let child = self.push_node(mv, state);
        let p = &mut self.nodes[parent as usize];
        p.tried += 1;
        let first = p.first_child;
        p.first_child = child;
        self.nodes[child as usize].next_sibling = first;
        child
    }

    /// One selection from the root: descends by UCT (decision nodes) or by sampling
    /// (chance nodes), applying each move to `state` (the root position on entry) and
    /// recording the nodes in `path`, until it creates a node (a chance node's child
    /// slot is born), meets a finished game or a proven node, or cannot expand a full
    /// arena.
    pub(crate) fn select<E: Evaluator<S>>(
        &mut self,
        state: &mut S,
        rng: &mut AgentRng,
        path: &mut Vec<u32>,
        set: &Settings,
        eval: &E,
    ) -> Leaf {
        // The selection's draws spend `rng`'s words a few bits at a time, as a
        // playout's do; what is left of the last word is dropped.
        let mut draws = Frugal::new();
        let mut node = 0u32;
        loop {
            path.push(node);
            let n = &self.nodes[node as usize];
            if n.actor == OVER || (set.solver && n.proof != Proof::Unknown) {
                return Leaf::Exact(n.proof.reward());
            }
            let room = self.nodes.len() < set.max_nodes;
            let n = self.nodes[node as usize];
            let next = if n.actor == CHANCE {
                let Some((start, count)) = self.chance_outcomes(node, state, set.max_nodes) else {
                    return Leaf::Evaluate;
                };
                let first_child = self.nodes[node as usize].first_child;
                let slot = if start == UNIFORM as usize {
                    draws.below_from_bits(rng, count as u64) as u32
                } else {
                    let total = self.outcomes[start + count - 1].1;
                    let pick = draws.below_from_bits(rng, u64::from(total)) as u32;
                    let slot = self.outcomes[start..start + count]
                        .iter()
                        .position(|&(_, cumulative)| pick < cumulative)
                        .expect("pick < total");
                    slot as u32
                };
                let child = first_child + slot;
                let outcome = self.nodes[child as usize].mv;
                state.apply(outcome);
                if self.nodes[child as usize].actor == UNBORN {
                    self.nodes[child as usize] = Self::new_node(outcome, state);
                    self.nodes[node as usize].tried += 1;
                    self.guide_new(child, state, set, eval);
                    return self.reached(child, path);
                }
                child
            } else {
                let Some((start, count)) = self.decision_moves(node, state, set.max_nodes) else {
                    return Leaf::Evaluate;
                };
                let n = self.nodes[node as usize];
                let tried = n.tried as usize;
                // A block's slots are allotted already.
                if tried < count && (room || n.has_block()) {
                    let pick = tried + draws.below(rng, (count - tried) as u64) as usize;
                    self.moves.swap(start + tried, start + pick);
                    let mv = self.moves[start + tried];
                    state.apply(mv);
                    let child = self.add_child(node, mv, state);
                    self.guide_new(child, state, set, eval);
                    return self.reached(child, path);
                }
                if n.first_child == NONE {
                    return Leaf::Evaluate;
                }
                let child = self.best_child(node, n.actor as Seat, set);
                state.apply(self.nodes[child as usize].mv);
                child
            };
            node = next;
        }
    }

    /// Ends the selection at the new node `child`.
    fn reached(&self, child: u32, path: &mut Vec<u32>) -> Leaf {
        path.push(child);
        let c = &self.nodes[child as usize];
        if c.actor == OVER {
            Leaf::Exact(c.proof.reward())
        } else {
            Leaf::Evaluate
        }
    }

    /// The slice of decision node `node`'s legal moves in the arena, generated on first
    /// use, with a block of unborn child slots if they are few ([`BLOCK_MOVES`]);
    /// `None` (and the tree [full](Tree::is_full)) if a block might take the arena past
    /// `max_nodes`, checked before anything is generated, as for a chance node.
    fn decision_moves(&mut self, node: u32, state: &S, max_nodes: usize) -> Option<(usize, usize)> {
        let n = &self.nodes[node as usize];
        if n.num_moves != UNEXPANDED {
            return Some((n.moves as usize, n.num_moves as usize));
        }
        if self.nodes.len() + usize::from(BLOCK_MOVES) > max_nodes {
            self.refused = true;
            return None;
        }
        let start = self.moves.len();
        state.legal_moves(&mut self.moves);
        let count = self.moves.len() - start;
        let first_slot = self.nodes.len() as u32;
        let n = &mut self.nodes[node as usize];
        n.moves = start as u32;
        n.num_moves = u16::try_from(count).expect("fewer than 65535 moves at a node");
        if n.has_block() {
            n.first_child = first_slot;
            for k in start..start + count {
                let slot = Self::unborn(self.moves[k]);
                self.nodes.push(slot);
            }
        }
        Some((start, count))
    }

    /// The slice of chance node `node`'s outcomes (cumulative weights), generated on
    /// first use together with its block of unborn child slots, or ([`UNIFORM`], the
    /// number of outcomes) if they are equally likely; `None` (and the tree
    /// [full](Tree::is_full)) if a block of [`State::max_moves`] slots would take the
    /// arena past `max_nodes`, checked before anything is generated, so that a node
    /// left a leaf costs nothing when passed again.
    fn chance_outcomes(
        &mut self,
        node: u32,
        state: &S,
        max_nodes: usize,
    ) -> Option<(usize, usize)> {
        let n = &self.nodes[node as usize];
        if n.num_moves != UNEXPANDED {
            return Some((n.moves as usize, n.num_moves as usize));
        }
        if self.nodes.len() + state.max_moves() > max_nodes {
            self.refused = true;
            return None;
        }
        let start = self.outcomes.len();
        state.chance_outcomes(&mut self.outcomes);
        let mut cumulative = 0u32;
        for entry in &mut self.outcomes[start..] {
            cumulative = cumulative
                .checked_add(entry.1)
                .expect("chance weights sum below 2^32");
            entry.1 = cumulative;
        }
        let count = self.outcomes.len() - start;
        let first_child = self.nodes.len() as u32;
        for &(outcome, _) in &self.outcomes[start..] {
            self.nodes.push(Self::unborn(outcome));
        }
        let start = self.keep_outcomes(start);
        let n = &mut self.nodes[node as usize];
        n.moves = start as u32;
        n.num_moves = u16::try_from(count).expect("fewer than 65535 outcomes at a node");
        n.first_child = first_child;
        Some((start, count))
    }

    /// The child of decision node `node` (seat `seat` to move) with the highest UCT
    /// score, `mean + c·sqrt(ln N / n)` (with guidance, [`Guide::score`]), its factors
    /// read from [`UctCounts`]; with the solver on, children proven lost for `seat` are
    /// skipped unless all are. Not inlined: in its own function the scan keeps its
    /// values in registers, where inlined into the iteration loop it spilled them (4%
    /// more iterations a second on Connect Four, 2% on Pig).
    #[inline(never)]
    fn best_child(&mut self, node: u32, seat: Seat, set: &Settings) -> u32 {
        let s = sign(seat);
        let explore_scale = set.c * self.uct_counts.parent(self.nodes[node as usize].visits);
        let mut best = NONE;
        let mut best_score = f64::NEG_INFINITY;
        let counts = &mut self.uct_counts;
        let nodes = &self.nodes;
        for (child, c) in children(nodes, node) {
            let lost = set.solver && c.proof.for_seat(seat) == Some(-1);
            if !lost {
                let score = if c.visits == 0 {
                    f64::INFINITY
                } else {
                    let f = counts.child(c.visits);
                    let explore = explore_scale * f.inverse_sqrt;
                    if set.guide.is_on() {
                        set.guide.score(c, s, explore)
                    } else {
                        s * c.total * f.inverse + explore
                    }
                };
                if score > best_score {
                    best_score = score;
                    best = child;
                }
            }
        }
        if best == NONE {
            // Every child is lost: the newest, as a list's head.
            self.children(node).next().expect("a child").0
        } else {
            best
        }
    }

    /// Adds `reward` (seat 0's view) to every node of `path`, with the solver on
    /// propagates a proof upwards from the leaf, and with implicit minimax backups
    /// recomputes each node's `v_τ` above the leaf from its children's (after its proof,
    /// which takes precedence).
    pub(crate) fn backup(&mut self, path: &[u32], reward: f64, set: &Settings) {
        let leaf = *path.last().expect("a path holds the root");
        let mut proving = set.solver && self.nodes[leaf as usize].proof != Proof::Unknown;
        // The `v_τ` the node below had before this backup (`None`: it is new).
        let mut below: Option<i16> = None;
        for (i, &index) in path.iter().enumerate().rev() {
            let n = &mut self.nodes[index as usize];
            n.visits += 1;
            n.total += reward;
            let (before, new) = (n.minimax, n.visits == 1);
            if proving && i + 1 < path.len() {
                proving = self.try_prove(index);
            }
            if set.guide.minimax > 0.0 {
                if i + 1 < path.len() {
                    self.back_up_minimax(index, path[i + 1], below);
                }
                below = (!new).then_some(before);
            }
        }
    }

    /// The children of `node` that exist: a decision node's newest first (list order,
    /// or its block's born slots from the last), a chance node's born ones in outcome
    /// order.
    #[inline]
    pub(crate) fn children(&self, node: u32) -> Children<'_, S::Move> {
        children(&self.nodes, node)
    }
}

/// [`Tree::children`] of `node` in `nodes`, for a caller that holds another field of
/// the tree mutably.
#[inline]
fn children<M>(nodes: &[Node<M>], node: u32) -> Children<'_, M> {
    let n = &nodes[node as usize];
    let (next, block, newest_first) = if n.actor == CHANCE && n.first_child != NONE {
        let slots = n.first_child..n.first_child + u32::from(n.num_moves);
        (NONE, slots, false)
    } else if n.has_block() {
        (
            NONE,
            n.first_child..n.first_child + u32::from(n.tried),
            true,
        )
    } else {
        (n.first_child, 0..0, false)
    };
    Children {
        nodes,
        next,
        block,
        newest_first,
    }
}

/// Appends `node` to `nodes` as the child of decision node `parent` that follows
/// `previous` in its list ([`NONE`]: the first); returns its index.
pub(super) fn append_child<M>(
    nodes: &mut Vec<Node<M>>,
    parent: u32,
    previous: u32,
    node: Node<M>,
) -> u32 {
    let index = nodes.len() as u32;
    nodes.push(node);
    if previous == NONE {
        nodes[parent as usize].first_child = index;
    } else {
        nodes[previous as usize].next_sibling = index;
    }
    index
}

/// Iterator over a node's children: `(index, node)`.
pub(crate) struct Children<'a, M> {
    nodes: &'a [Node<M>],
    /// The next child of a decision node's list, or [`NONE`].
    next: u32,
    /// The block's slots not yet visited (empty for a list).
    block: std::ops::Range<u32>,
    /// Whether the block is a decision node's, all born, visited from the last slot.
    newest_first: bool,
}

impl<'a, M> Iterator for Children<'a, M> {
    type Item = (u32, &'a Node<M>);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.newest_first {
            let index = self.block.next_back()?;
            return Some((index, &self.nodes[index as usize]));
        }
        if let Some(index) = self.block.find(|&i| self.nodes[i as usize].actor != UNBORN) {
            return Some((index, &self.nodes[index as usize]));
        }
        if self.next == NONE {
            return None;
        }
        let index = self.next;
        let node = &self.nodes[index as usize];
        self.next = node.next_sibling;
        Some((index, node))
    }
}

#[cfg(test)]
mod tests;
