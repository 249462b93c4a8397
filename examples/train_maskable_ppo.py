"""Train sb3-contrib's MaskablePPO on ``unokit/Uno-v0`` against the heuristic bot.

Needs the ``train`` extra (CPU torch, pinned, then sb3-contrib; ``docs/rl.md``)::

    pip install '.[rl]' torch==2.13.0 && pip install '.[rl,train]'   # in a clone of unokit
    python examples/train_maskable_ppo.py --timesteps 1000000 --out examples/models/maskable_ppo_heuristic.zip
    unokit arena --bots policy:examples/models/maskable_ppo_heuristic.zip,heuristic \\
        --games 1000 --option target=1

An episode is one round (``episode="round"``): +1 for winning it, -1 for losing. The learning
seat is drawn at each reset (``seat="random"``), so the policy plays from any seat; the
other seats play the opponent bot. The saved model is what ``--bots policy:PATH`` loads;
its training settings (edition, players, options, encoding version) go beside it, in
``NAME.settings.json``.
``--minutes`` stops training after that many minutes of wall clock, whatever the timesteps.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import gymnasium
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv, VecMonitor

import unokit.envs  # noqa: F401 (registers unokit/Uno-v0)
from unokit.envs.policy import save_settings


class _Clock(BaseCallback):
    """Stops training after ``minutes``, logs the win rate of recent episodes every ``every``
    timesteps, and prints a progress line (a bar and the running win rate) at least every
    ``report_s`` seconds unless ``quiet``."""

    def __init__(self, minutes: float | None, every: int, total: int, report_s: float = 60.0,
                 quiet: bool = False) -> None:
        super().__init__()
        self.minutes = minutes
        self.deadline = None if minutes is None else time.monotonic() + 60 * minutes
        self.every = every
        self.total = total
        self.report_s = report_s
        self.quiet = quiet
        self.results: list[float] = []
        self.log: list[dict[str, Any]] = []
        self.start = time.monotonic()
        self.last_report = self.start

    def win_rate(self) -> float:
        """The win rate of the last 500 training episodes."""
        recent = self.results[-500:]
        return sum(r > 0 for r in recent) / len(recent) if recent else float("nan")

    def _progress(self) -> None:
        now = time.monotonic()
        done = self.num_timesteps / self.total
        if self.deadline is not None:
            done = max(done, (now - self.start) / (60 * self.minutes)) if self.minutes else 1.0
        done = min(done, 1.0)
        bar = "#" * int(30 * done) + "-" * (30 - int(30 * done))
        print(f"[{bar}] {100 * done:5.1f}% {self.num_timesteps:,} timesteps, {len(self.results):,} "
              f"episodes, win rate {self.win_rate():.1%} (last 500), {(now - self.start) / 60:.1f} min",
              flush=True)
        self.last_report = now

    def _on_step(self) -> bool:
        for info in self.locals.get("infos", []):
            episode = info.get("episode")
            if episode is not None:
                self.results.append(float(episode["r"]))
        step = self.num_timesteps
        if step // self.every != (step - self.training_env.num_envs) // self.every:
            entry = {"timesteps": self.num_timesteps, "minutes": (time.monotonic() - self.start) / 60,
                     "episodes": len(self.results), "recent_win_rate": self.win_rate()}
            self.log.append(entry)
        if not self.quiet and time.monotonic() - self.last_report >= self.report_s:
            self._progress()
        return self.deadline is None or time.monotonic() < self.deadline


def evaluate(model: Any, args: argparse.Namespace, episodes: int) -> float:
    """The trained policy's win rate over ``episodes`` one-round episodes against the
    opponent (its most likely action; a seed of its own)."""
    env = make_env(args)
    wins = 0
    obs, _ = env.reset(seed=args.seed + 1)
    for _ in range(episodes):
        done = False
        reward = 0.0
        while not done:
            action, _ = model.predict(obs, action_masks=env.unwrapped.action_masks(), deterministic=True)
            obs, reward, done, _, _ = env.step(int(action))
        wins += reward > 0
        obs, _ = env.reset()
    return wins / episodes


def make_env(args: argparse.Namespace) -> Any:
    options = dict(item.split("=", 1) for item in args.option)
    return gymnasium.make("unokit/Uno-v0", edition=args.edition, players=args.players,
                          opponents=[args.opponent], options=options, seat="random", actions=args.actions)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--timesteps", type=int, default=200_000, help="learning-seat decisions to train on")
    parser.add_argument("--minutes", type=float, default=None, help="stop after this much wall clock")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--edition", default="classic")
    parser.add_argument("--opponent", default="heuristic", help="the bot at every other seat")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a match option (repeatable)")
    parser.add_argument("--actions", choices=("full", "rlcard"), default="full",
                        help="the learning seat's action set: the printed rules', or RLCard's shorter one")
    parser.add_argument("--envs", type=int, default=8, help="environments stepped together")
    parser.add_argument("--n-steps", type=int, default=256, help="steps per environment per update")
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="maskable_ppo_uno.zip", help="where to save the model")
    parser.add_argument("--log", default=None, help="write the training log (JSON) here")
    parser.add_argument("--report-seconds", type=float, default=60.0,
                        help="print a progress line at least this often")
    parser.add_argument("--eval-episodes", type=int, default=200,
                        help="episodes of the evaluation that ends a run (0: none)")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    venv = VecMonitor(DummyVecEnv([lambda: make_env(args)] * args.envs))
    venv.seed(args.seed)
    model = MaskablePPO(
        "MultiInputPolicy", venv, n_steps=args.n_steps, batch_size=512, n_epochs=4,
        learning_rate=3e-4, gamma=0.99, gae_lambda=0.95, ent_coef=0.01, seed=args.seed,
        policy_kwargs={"net_arch": [128, 128]}, verbose=0, device="cpu")
    clock = _Clock(args.minutes, every=max(args.envs * args.n_steps, args.timesteps // 20),
                   total=args.timesteps, report_s=args.report_seconds, quiet=args.quiet)
    start = time.monotonic()
    model.learn(total_timesteps=args.timesteps, callback=clock)
    minutes = (time.monotonic() - start) / 60
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    model.save(args.out)
    save_settings(args.out, args.edition, args.players, dict(item.split("=", 1) for item in args.option),
                  episode="round", actions=args.actions, opponent=args.opponent,
                  timesteps=model.num_timesteps)
    if not args.quiet:
        print(f"trained {model.num_timesteps:,} timesteps ({len(clock.results):,} episodes) in "
              f"{minutes:.1f} min; saved {args.out}")
    win = None
    if args.eval_episodes > 0:
        win = evaluate(model, args, args.eval_episodes)
        if not args.quiet:
            print(f"evaluation: win rate {win:.1%} over {args.eval_episodes} one-round episodes against "
                  f"{args.opponent} (most likely action)", flush=True)
    if args.log:
        Path(args.log).write_text(json.dumps({"args": vars(args), "timesteps": model.num_timesteps,
                                              "minutes": minutes, "log": clock.log,
                                              "evaluation_win_rate": win}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
