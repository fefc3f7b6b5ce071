"""Masked PPO on ``hupai.env.vector_env``: a Guangdong policy that beats RandomBot, in numpy alone.

    python examples/train_ppo.py                       # about 9 minutes on 2 cores; writes build/ppo/
    python examples/train_ppo.py --minutes 0.1 --eval-hands 40   # a smoke run of seconds

The policy is a small network (one hidden layer plus a linear path from the inputs to the action logits) over
features of ``vector_env``: the logits of the actions the mask rules out are set to -inf before the softmax, so
the policy never picks an illegal action. Training is PPO (clipped ratio, generalised advantage estimation, an
entropy bonus) with Adam; the gradients are written out by hand, so that nothing beyond numpy is needed.

The evaluation is a rotated match against three RandomBots: each deal is played with the policy at every seat in
turn (the others RandomBots), and the mean payment per hand gets a 95% confidence interval over deals. The
policy beats RandomBot when the interval's low end is above 0 (three RandomBots and a RandomBot average 0).

Output in ``--out`` (build/ppo): ``curve.png`` (the mean reward per hand over training, and the evaluation),
``policy.npz`` (the weights), ``report.json`` (the numbers).
"""

from __future__ import annotations

import os

# One BLAS thread: the network is small, and BLAS threads that spin for a core the environment needs make a
# matrix product of this size ten or more times slower on a machine with two cores.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import hupai  # noqa: E402
import hupai.env  # noqa: E402
import numpy as np  # noqa: E402
from hupai.bots import RandomBot  # noqa: E402
from hupai.game import Match  # noqa: E402
from hupai.game.match import play_until  # noqa: E402

# -- features ----------------------------------------------------------------------------------------------------
KIND_FEATURES = 4


def to_inputs(obs: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The network's inputs from stacked observations of ``vector_env``: rows of the whole observation
    (float32[N, D]) and features of each tile kind (float32[N, 34, KIND_FEATURES]) for the discard block."""
    n = obs["hand"].shape[0]
    shanten = obs["discard_shanten"].astype(np.float32)
    held = shanten < hupai.env.features.NO_DISCARD
    best = np.where(held, shanten, 99).min(axis=1, keepdims=True)
    keeps_best = held * (shanten == best)              # the discards that keep the best shanten
    after = np.where(held, np.clip(shanten, -1, 8) / 8.0, 0.0)
    seen = (obs["discard_counts"].sum(axis=1) + obs["melds"].sum(axis=1)) / 4.0   # copies in sight
    parts = [
        obs["hand"] / 4.0, obs["drawn"], obs["tile"],
        obs["melds"].reshape(n, -1) / 4.0, obs["discard_counts"].reshape(n, -1) / 4.0,
        obs["hand_sizes"] / 14.0, obs["table"] / np.maximum(obs["table"].max(axis=1, keepdims=True), 1.0),
        keeps_best, after,
    ]
    rows = np.concatenate([part.astype(np.float32) for part in parts], axis=1)
    kinds = np.stack([keeps_best, after, obs["hand"] / 4.0, seen], axis=2).astype(np.float32)
    return rows, kinds


# -- the network -------------------------------------------------------------------------------------------------
class Policy:
    """logits = tanh(x W1 + b1) Wp + x Ws + bp, plus (discard block) each kind's features . wk;
    value = tanh(x W1 + b1) wv + bv. The shared wk scores every kind's discard alike, so what is learnt about
    one tile (keep the best shanten) holds for all of them."""

    def __init__(self, inputs: int, actions: int, hidden: int, rng: np.random.Generator) -> None:
        scale = np.sqrt(1.0 / inputs)
        self.params = {
            "W1": rng.normal(0, scale, (inputs, hidden)).astype(np.float32), "b1": np.zeros(hidden, np.float32),
            "Wp": rng.normal(0, 0.01, (hidden, actions)).astype(np.float32), "bp": np.zeros(actions, np.float32),
            "Ws": np.zeros((inputs, actions), np.float32), "wk": np.zeros(KIND_FEATURES, np.float32),
            "wv": rng.normal(0, 0.01, (hidden, 1)).astype(np.float32), "bv": np.zeros(1, np.float32)}
        self.moments = {key: (np.zeros_like(value), np.zeros_like(value)) for key, value in self.params.items()}
        self.updates = 0

    def forward(self, x: tuple[np.ndarray, np.ndarray], mask: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(hidden, log-probabilities with -inf where masked, values)."""
        p = self.params
        rows, kinds = x
        hidden = np.tanh(rows @ p["W1"] + p["b1"])
        logits = hidden @ p["Wp"] + rows @ p["Ws"] + p["bp"]
        logits[:, :kinds.shape[1]] += kinds @ p["wk"]  # the discard block comes first
        logits = np.where(mask, logits, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        logp = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
        return hidden, logp, (hidden @ p["wv"] + p["bv"])[:, 0]

    def act(self, x: tuple[np.ndarray, np.ndarray], mask: np.ndarray, rng: np.random.Generator,
            greedy: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        _, logp, values = self.forward(x, mask)
        count = len(mask)
        if greedy:
            actions = logp.argmax(axis=1)
        else:
            cumulative = np.exp(logp).cumsum(axis=1)
            draws = rng.random((count, 1)) * cumulative[:, -1:]
            actions = np.minimum((cumulative < draws).sum(axis=1), logp.shape[1] - 1)
            # A draw can land on a masked index only through rounding: take the most likely legal one instead.
            bad = ~mask[np.arange(count), actions]
            actions[bad] = logp[bad].argmax(axis=1)
        return actions, logp[np.arange(count), actions], values

    def ppo_step(self, x: tuple[np.ndarray, np.ndarray], mask: np.ndarray, actions: np.ndarray,
                 old_logp: np.ndarray,
                 advantages: np.ndarray, returns: np.ndarray, clip: float, value_coef: float,
                 entropy_coef: float, lr: float) -> dict[str, float]:
        """One Adam step on the PPO loss of a minibatch; the loss's parts."""
        p, rows = self.params, np.arange(len(mask))
        inputs, kinds = x
        hidden, logp, values = self.forward(x, mask)
        probs = np.exp(logp)
        safe_logp = np.where(mask, logp, 0.0)
        entropy = -(probs * safe_logp).sum(axis=1)
        ratio = np.exp(logp[rows, actions] - old_logp)
        clipped = ((advantages > 0) & (ratio > 1 + clip)) | ((advantages < 0) & (ratio < 1 - clip))
        policy_loss = -np.minimum(ratio * advantages, np.clip(ratio, 1 - clip, 1 + clip) * advantages)
        batch = len(mask)
        # d loss / d logp[a] of the chosen action, then through the softmax; the entropy bonus's own gradient.
        g_chosen = np.where(clipped, 0.0, -ratio * advantages) / batch
        d_logits = -probs * g_chosen[:, None]
        d_logits[rows, actions] += g_chosen
        d_logits += entropy_coef * probs * (safe_logp + entropy[:, None]) / batch
        d_values = value_coef * (values - returns) / batch
        d_hidden = d_logits @ p["Wp"].T + d_values[:, None] @ p["wv"].T
        d_pre = d_hidden * (1 - hidden ** 2)
        grads = {"Wp": hidden.T @ d_logits, "bp": d_logits.sum(axis=0), "Ws": inputs.T @ d_logits,
                 "wk": np.einsum("nk,nkf->f", d_logits[:, :kinds.shape[1]], kinds),
                 "wv": hidden.T @ d_values[:, None], "bv": d_values.sum(keepdims=True),
                 "W1": inputs.T @ d_pre, "b1": d_pre.sum(axis=0)}
        norm = np.sqrt(sum(float((g ** 2).sum()) for g in grads.values()))
        shrink = min(1.0, 0.5 / (norm + 1e-8))  # gradient norm clipped at 0.5
        self.updates += 1
        for key, grad in grads.items():
            m, v = self.moments[key]
            m *= 0.9
            m += 0.1 * grad * shrink
            v *= 0.999
            v += 0.001 * (grad * shrink) ** 2
            m_hat, v_hat = m / (1 - 0.9 ** self.updates), v / (1 - 0.999 ** self.updates)
            p[key] -= (lr * m_hat / (np.sqrt(v_hat) + 1e-8)).astype(np.float32)
        return {"policy": float(policy_loss.mean()), "value": float(((values - returns) ** 2).mean()),
                "entropy": float(entropy.mean())}


# -- training ----------------------------------------------------------------------------------------------------
def train(args: argparse.Namespace) -> tuple[Policy, list[dict[str, float]]]:
    rng = np.random.default_rng(args.seed)
    envs = hupai.env.vector_env("guangdong", args.envs, opponents="random")
    obs, _ = envs.reset(seed=args.seed)
    x = to_inputs(obs)
    policy = Policy(x[0].shape[1], envs.single_action_space.n, args.hidden, rng)
    curve: list[dict[str, float]] = []
    start = time.monotonic()
    hand_rewards = np.zeros(args.envs)
    steps = 0
    while time.monotonic() - start < args.minutes * 60:
        batch: dict[str, list[Any]] = {k: [] for k in ("x", "mask", "action", "logp", "value", "reward",
                                                               "done")}
        finished: list[float] = []
        for _ in range(args.rollout):
            mask = envs.action_masks()
            actions, logp, values = policy.act(x, mask, rng)
            obs, rewards, terminated, truncated, _ = envs.step(actions)
            for key, value in (("x", x), ("mask", mask), ("action", actions), ("logp", logp), ("value", values),
                               ("reward", rewards), ("done", terminated | truncated)):
                batch[key].append(value)
            hand_rewards += rewards
            for table in np.flatnonzero(terminated | truncated):
                finished.append(hand_rewards[table] / envs.envs[0].aec.reward_scale)
                hand_rewards[table] = 0.0
            x = to_inputs(obs)
            steps += args.envs
        _, _, last_values = policy.forward(x, envs.action_masks())
        # Generalised advantage estimation over the rollout (an episode is one hand: its reward comes at the end).
        rewards, dones = np.array(batch["reward"]), np.array(batch["done"])
        values = np.array(batch["value"])
        advantages = np.zeros_like(rewards)
        running = np.zeros(args.envs)
        for t in reversed(range(args.rollout)):
            following = last_values if t == args.rollout - 1 else values[t + 1]
            live = 1.0 - dones[t]
            delta = rewards[t] + args.gamma * following * live - values[t]
            running = delta + args.gamma * args.lam * live * running
            advantages[t] = running
        returns = (advantages + values).reshape(-1)
        flat = {key: np.concatenate(batch[key]) if key == "mask" else np.array(batch[key]).reshape(-1)
                for key in ("mask", "action", "logp")}
        flat_rows = np.concatenate([rows for rows, _ in batch["x"]])
        flat_kinds = np.concatenate([kinds for _, kinds in batch["x"]])
        adv = advantages.reshape(-1)
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        losses: dict[str, float] = {}
        total = len(adv)
        for _ in range(args.epochs):
            order = rng.permutation(total)
            for begin in range(0, total, args.minibatch):
                pick = order[begin:begin + args.minibatch]
                losses = policy.ppo_step((flat_rows[pick], flat_kinds[pick]), flat["mask"][pick],
                                         flat["action"][pick].astype(int), flat["logp"][pick], adv[pick],
                                         returns[pick], args.clip, 0.5,
                                         args.entropy, args.lr)
        point = {"seconds": time.monotonic() - start, "steps": steps, "hands": len(finished),
                 "mean_payment": float(np.mean(finished)) if finished else float("nan"), **losses}
        curve.append(point)
        print(f"{point['seconds']:6.0f}s {steps:8d} steps  {len(finished):4d} hands  mean payment "
              f"{point['mean_payment']:+.3f}  entropy {losses.get('entropy', 0):.3f}", flush=True)
    envs.close()
    return policy, curve


# -- evaluation --------------------------------------------------------------------------------------------------
def evaluate(policy: Policy, deals: int, seed: int) -> dict[str, Any]:
    """A rotated match: every deal played with the policy at each seat in turn against RandomBots; the mean
    payment per hand of the policy and its 95% confidence interval over deals (normal approximation). The
    RandomBots play through the engine's own loop (``play_until``) up to each of the policy's decisions."""
    rules = hupai.rules.get("guangdong")
    features = hupai.env.Features(rules)
    n = rules.num_players
    rng = np.random.default_rng(seed)
    per_deal = []
    for deal in range(deals):
        payments = []
        for learner in range(n):
            # Claim window "eligible", as in training; one hand, dealt from the deal's seed for every rotation.
            match = Match(rules, seed=seed * 100_003 + deal, claim_window="eligible")
            game = match.new_game()
            players = [None if s == learner else RandomBot(deal * 7 + s) for s in range(n)]
            while not play_until(game, players, learner):
                observation = game.observation(learner)
                encoded = features.encode(observation, match.scores)
                single = {key: value[None] for key, value in encoded.items()}
                mask = encoded["action_mask"][None].astype(bool)
                index, _, _ = policy.act(to_inputs(single), mask, rng, greedy=True)
                game.apply(features.actions.action(int(index[0]), observation.legal_actions))
            assert game.result is not None
            payments.append(game.result.payments[learner])
        per_deal.append(np.mean(payments))
    values = np.array(per_deal, dtype=float)
    mean, half = float(values.mean()), float(1.96 * values.std(ddof=1) / np.sqrt(len(values)))
    return {"deals": deals, "hands": deals * n, "mean_payment": mean, "ci95": [mean - half, mean + half],
            "beats_random": mean - half > 0}


def plot(curve: list[dict[str, float]], result: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    steps = [point["steps"] for point in curve]
    ax.plot(steps, [point["mean_payment"] for point in curve], label="training: mean payment per hand")
    ax.axhline(0, color="grey", lw=0.8, label="RandomBot (0 by symmetry)")
    low, high = result["ci95"]
    ax.errorbar([steps[-1]], [result["mean_payment"]], yerr=[[result["mean_payment"] - low],
                [high - result["mean_payment"]]], fmt="o", color="C3",
                label=f"rotated match vs RandomBot, {result['hands']} hands (95% CI)")
    ax.set_xlabel("learner steps")
    ax.set_ylabel("payment per hand (points)")
    ax.set_title("Masked PPO on hupai.env.vector_env (Guangdong, RandomBot opponents)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=6.5, help="training time (wall clock)")
    parser.add_argument("--envs", type=int, default=64, help="tables of vector_env")
    parser.add_argument("--rollout", type=int, default=32, help="steps per table between updates")
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--minibatch", type=int, default=512)
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--gamma", type=float, default=1.0)
    parser.add_argument("--lam", type=float, default=0.95)
    parser.add_argument("--clip", type=float, default=0.2)
    parser.add_argument("--entropy", type=float, default=0.01)
    parser.add_argument("--eval-hands", type=int, default=1000, help="hands of the rotated evaluation match")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("build/ppo"))
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    policy, curve = train(args)
    np.savez(args.out / "policy.npz", **policy.params)
    result = evaluate(policy, max(2, args.eval_hands // 4), args.seed + 1)
    plot(curve, result, args.out / "curve.png")
    report = {"curve": curve, "evaluation": result}
    (args.out / "report.json").write_text(json.dumps(report, indent=1))
    low, high = result["ci95"]
    print(f"rotated match vs RandomBot: {result['mean_payment']:+.3f} points per hand over {result['hands']} hands, "
          f"95% CI [{low:+.3f}, {high:+.3f}]: {'beats' if result['beats_random'] else 'does not beat'} RandomBot")
    return report


if __name__ == "__main__":
    main()
