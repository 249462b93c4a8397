"""The training loop end to end, in seconds: ``examples/train_maskable_ppo.py`` trains
MaskablePPO for a few thousand steps, and the saved policy sits in the arena as
``policy:PATH``. No strength is asserted (a few thousand steps learn nothing much).

Needs the train extra (``pip install torch==2.13.0 && pip install '.[rl,train]'`` in a clone);
skipped without it.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

REASON = ("training needs the train extra: pip install torch==2.13.0 && pip install '.[rl,train]' "
          "in a clone")
pytest.importorskip("gymnasium", reason=REASON)
pytest.importorskip("torch", reason=REASON)
pytest.importorskip("sb3_contrib", reason=REASON)

from unokit import Game, Options  # noqa: E402
from unokit.bots import make_bot, play_match  # noqa: E402
from unokit.bots.registry import BOTS, check_bot_names  # noqa: E402
from unokit.cli import main  # noqa: E402
from unokit.core.errors import OptionError  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def _example() -> ModuleType:
    path = ROOT / "examples" / "train_maskable_ppo.py"
    spec = importlib.util.spec_from_file_location("train_maskable_ppo", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("policy") / "smoke.zip"
    log = out.with_suffix(".json")
    status = _example().main(["--timesteps", "2048", "--envs", "2", "--n-steps", "256", "--out", str(out),
                              "--log", str(log), "--quiet"])
    assert status == 0 and out.exists()
    assert json.loads(log.read_text())["timesteps"] >= 2048
    return out


def test_policy_sits_in_the_arena(model: Path, capsys: pytest.CaptureFixture[str]) -> None:
    name = f"policy:{model}"
    assert name in BOTS and "policy:" not in ", ".join(sorted(BOTS))  # accepted, not listed
    check_bot_names([name, "heuristic"])
    status = main(["arena", "--bots", f"{name},heuristic", "--games", "4", "--option", "target=1",
                   "--jobs", "1", "--no-progress", "--json"])
    out = capsys.readouterr().out
    assert status == 0
    summary = json.loads(out)
    assert summary["games"] == 4 and summary["bots"][name]["entries"] == 4


def test_policy_bot_plays_legal_actions_in_and_out_of_turn(model: Path, tmp_path: Path) -> None:
    import shutil

    from unokit.envs.policy import save_settings

    options = Options(jump_in=True, target=100)  # out-of-turn decisions come up: jump in, uno
    copy = tmp_path / "jump_in.zip"  # the same network, its settings saying these options
    shutil.copy(model, copy)
    save_settings(copy, "classic", 2, options)
    bot = make_bot(f"policy:{copy}", seed=1)
    others = [make_bot("random", seed=s) for s in range(2)]
    # play_match asks every seat through the table and refuses any illegal action.
    game = play_match(Game.new("classic", 2, options, seed=3), [bot, others[0]])
    assert game.is_over


def test_policy_bot_errors() -> None:
    with pytest.raises(OptionError, match="no such file"):
        make_bot("policy:/nonexistent/model.zip")


def test_policy_bot_refuses_another_player_count(model: Path) -> None:
    bot = make_bot(f"policy:{model}")
    game = Game.new("classic", 3, seed=1)
    with pytest.raises(OptionError, match="players"):
        bot.act(game.observe(game.turn))


def test_the_model_stores_its_training_settings(model: Path) -> None:
    from unokit.envs.encoding import ENCODING_VERSION
    from unokit.envs.policy import load_settings

    settings = load_settings(model)
    assert (settings["edition"], settings["players"]) == ("classic", 2)
    assert settings["encoding"] == ENCODING_VERSION
    assert Options.from_mapping(settings["options"]) == Options()


def test_policy_bot_refuses_another_edition_or_options(model: Path) -> None:
    bot = make_bot(f"policy:{model}")
    game = Game.new("cars2", 2, seed=1)
    with pytest.raises(OptionError, match="edition classic"):
        bot.act(game.observe(game.turn))
    game = Game.new("classic", 2, Options(stacking="progressive"), seed=1)
    with pytest.raises(OptionError, match="stacking"):
        make_bot(f"policy:{model}").act(game.observe(game.turn))
    game = Game.new("classic", 2, Options(target=1), seed=1)  # one-round episodes never see the target
    assert make_bot(f"policy:{model}").act(game.observe(game.turn)) is not None


def test_policy_without_settings_or_of_another_encoding_is_refused(model: Path, tmp_path: Path) -> None:
    import shutil

    from unokit.envs.policy import save_settings

    copy = tmp_path / "bare.zip"
    shutil.copy(model, copy)
    with pytest.raises(OptionError, match="no training settings"):
        make_bot(f"policy:{copy}")
    settings = save_settings(copy, "classic", 2)
    settings.write_text(settings.read_text().replace('"encoding": 1', '"encoding": 0'))
    game = Game.new("classic", 2, seed=1)
    with pytest.raises(OptionError, match="encoding version 0"):
        make_bot(f"policy:{copy}").act(game.observe(game.turn))


def first_legal(obs: dict[str, object]) -> int:
    """A policy for ``policy:module:function``: the first action of the mask."""
    import numpy as np

    return int(np.flatnonzero(obs["action_mask"])[0])  # type: ignore[call-overload]


def test_policy_bot_loads_a_callable_and_a_torchscript_file(tmp_path: Path) -> None:
    import torch

    game = Game.new("classic", 2, seed=4)
    obs = game.observe(game.turn)
    bot = make_bot(f"policy:{__name__}:first_legal")
    assert bot.act(obs) == sorted(obs.legal)[0]
    with pytest.raises(OptionError, match="cannot import"):
        make_bot("policy:no_such_module_here:f")

    class Last(torch.nn.Module):  # scores rising with the action number: the last legal one
        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return torch.arange(176, dtype=torch.float32).unsqueeze(0) + 0 * x.sum()

    path = tmp_path / "last.pt"
    torch.jit.save(torch.jit.script(Last()), str(path))
    from unokit.envs.policy import save_settings

    save_settings(path, "classic", 2)
    assert make_bot(f"policy:{path}").act(obs) == sorted(obs.legal)[-1]

    # Trained under RLCard's action set (its settings say so): it plays under it, so with a
    # card to play it does not draw, though drawing scores highest.
    from unokit.core.actions import ACTION_KIND, K_DRAW, K_PLAY

    for seed in range(50):
        game = Game.new("classic", 2, seed=seed)
        obs = game.observe(game.turn)
        kinds = [ACTION_KIND[a] for a in obs.legal]
        if K_PLAY in kinds and ACTION_KIND[max(obs.legal)] == K_DRAW:
            break
    assert ACTION_KIND[make_bot(f"policy:{path}").act(obs) or 0] == K_DRAW
    save_settings(path, "classic", 2, actions="rlcard")
    assert ACTION_KIND[make_bot(f"policy:{path}").act(obs) or 0] == K_PLAY


def test_a_minutes_run_reports_progress_and_ends_with_an_evaluation(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "short.zip"
    status = _example().main(["--minutes", "0.05", "--timesteps", "1000000", "--envs", "1", "--n-steps", "64",
                              "--out", str(out), "--report-seconds", "0", "--eval-episodes", "3"])
    text = capsys.readouterr().out
    assert status == 0 and out.exists()
    assert "% " in text and "win rate" in text and "] " in text  # a progress bar with the win rate
    assert "evaluation: win rate" in text.splitlines()[-1]
