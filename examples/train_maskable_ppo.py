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
    """Stops training after ``minutes`` and logs the win rate of recent episodes."""

    def __init__(self, minutes: float | None, every: int) -> None:
        super().__init__()
        self.deadline = None if minutes is None else time.monotonic() + 60 * minutes
        self.every = every
        self.results: list[float] = []
        self.log: list[dict[str, Any]] = []
        self.start = time.monotonic()

    def _on_step(self) -> bool:
        for info in self.locals.get("infos", []):
            episode = info.get("episode")
            if episode is not None:
                self.results.append(float(episode["r"]))
        step = self.num_timesteps
        if step // self.every != (step - self.training_env.num_envs) // self.every:
            recent = self.results[-500:]
            win = sum(r > 0 for r in recent) / len(recent) if recent else float("nan")
            entry = {"timesteps": self.num_timesteps, "minutes": (time.monotonic() - self.start) / 60,
                     "episodes": len(self.results), "recent_win_rate": win}
            self.log.append(entry)
            print(json.dumps(entry), flush=True)
        return self.deadline is None or time.monotonic() < self.deadline


def make_env(args: argparse.Namespace) -> Any:
    options = dict(item.split("=", 1) for item in args.option)
    return gymnasium.make("unokit/Uno-v0", edition=args.edition, players=args.players,
                          opponents=[args.opponent], options=options, seat="random")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--timesteps", type=int, default=200_000, help="learning-seat decisions to train on")
    parser.add_argument("--minutes", type=float, default=None, help="stop after this much wall clock")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--edition", default="classic")
    parser.add_argument("--opponent", default="heuristic", help="the bot at every other seat")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a match option (repeatable)")
    parser.add_argument("--envs", type=int, default=8, help="environments stepped together")
    parser.add_argument("--n-steps", type=int, default=256, help="steps per environment per update")
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="maskable_ppo_uno.zip", help="where to save the model")
    parser.add_argument("--log", default=None, help="write the training log (JSON) here")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    venv = VecMonitor(DummyVecEnv([lambda: make_env(args)] * args.envs))
    venv.seed(args.seed)
    model = MaskablePPO(
        "MultiInputPolicy", venv, n_steps=args.n_steps, batch_size=512, n_epochs=4,
        learning_rate=3e-4, gamma=0.99, gae_lambda=0.95, ent_coef=0.01, seed=args.seed,
        policy_kwargs={"net_arch": [128, 128]}, verbose=0, device="cpu")
    clock = _Clock(args.minutes, every=max(args.envs * args.n_steps, args.timesteps // 20))
    start = time.monotonic()
    model.learn(total_timesteps=args.timesteps, callback=clock)
    minutes = (time.monotonic() - start) / 60
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    model.save(args.out)
    save_settings(args.out, args.edition, args.players, dict(item.split("=", 1) for item in args.option),
                  episode="round", opponent=args.opponent, timesteps=model.num_timesteps)
    if not args.quiet:
        print(f"trained {model.num_timesteps:,} timesteps ({len(clock.results):,} episodes) in "
              f"{minutes:.1f} min; saved {args.out}")
    if args.log:
        Path(args.log).write_text(json.dumps({"args": vars(args), "timesteps": model.num_timesteps,
                                              "minutes": minutes, "log": clock.log}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
