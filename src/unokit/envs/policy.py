"""A trained policy as a bot: ``policy:SPEC`` in the bot registry, so that ``unokit arena
--bots policy:PATH,heuristic`` seats it like any other bot.

``SPEC`` is one of:

* a model saved by sb3-contrib's ``MaskablePPO`` (``model.save(PATH)``, as
  ``examples/train_maskable_ppo.py`` does; ``.zip`` optional);
* a TorchScript file (``torch.jit.save``): a module called with a ``float32`` tensor of shape
  ``(1, size)`` (the observation vector) that returns ``(1, 176)`` scores, of which the bot
  plays the best legal one;
* ``module:function``, any importable callable ``function(obs) -> action`` taking the
  environments' observation dict (``{"observation": ..., "action_mask": ...}``), the
  :data:`~unokit.envs.gymnasium.Policy` an environment's opponent is.

A file's training settings lie beside it, in ``NAME.settings.json`` (:func:`save_settings`):
the edition, the number of players, the match options and the encoding's version
(:data:`~unokit.envs.encoding.ENCODING_VERSION`). The bot refuses a game that differs from
them (the target score aside for a policy trained on one-round episodes, ``episode: "round"``
in its settings: every such episode starts at 0 points), and a file without them. A policy
trained under RLCard's action set (``"actions": "rlcard"`` in its settings, as the training
example's ``--actions rlcard`` writes) plays under it on its turn, as it learned. Files
need the ``train`` extra (torch; sb3-contrib for ``MaskablePPO``), imported only when such a
bot is made. The bot encodes its
:class:`~unokit.core.observation.Observation` exactly as the environments do, masks the
illegal actions, and plays the policy's choice; "nothing now" (175) is ``None``.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import zipfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..core.actions import Action
from ..core.errors import OptionError
from ..core.observation import Observation
from ..core.options import Options
from .core import make_options, restrict_rlcard
from .encoding import ENCODING_VERSION, NOTHING, Encoder

__all__ = ["PolicyBot", "load_policy", "load_settings", "save_settings", "settings_path"]

Predict = Callable[[dict[str, npt.NDArray[Any]]], int]
"""A loaded policy: the observation dict to an action (175: nothing now)."""

_LOADED: dict[tuple[str, float, bool], tuple[Predict, Any]] = {}
_CALLABLE = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_][\w.]*$")


def settings_path(path: str | os.PathLike[str]) -> Path:
    """Where the training settings of the model at ``path`` lie: ``NAME.settings.json``."""
    return Path(path).with_suffix(".settings.json")


def save_settings(path: str | os.PathLike[str], edition: str, players: int,
                  options: Options | Mapping[str, Any] | None = None, **extra: Any) -> Path:
    """Write the training settings of the model at ``path`` (the edition, the number of
    players, every match option and the encoding's version, and any JSON-able ``extra``, such
    as the opponent); returns the settings file."""
    out = settings_path(path)
    record = {"edition": edition, "players": players, "options": make_options(options).as_dict(),
              "encoding": ENCODING_VERSION, **extra}
    out.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return out


def load_settings(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The training settings saved beside the model at ``path`` (:func:`save_settings`)."""
    file = settings_path(path)
    if not file.is_file():
        raise OptionError(f"policy {str(path)!r} has no training settings ({file.name}): write them "
                          f"with unokit.envs.policy.save_settings(path, edition, players, options)")
    record: dict[str, Any] = json.loads(file.read_text(encoding="utf-8"))
    return record


def _import(name: str, spec: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        raise OptionError(f"policy {spec!r} needs the train extra: pip install '.[rl,train]' in a "
                          f"clone of unokit ({exc})") from None


def _is_torchscript(file: str) -> bool:
    """Whether ``file`` is a TorchScript archive (an sb3 model is a zip too, without ``code/``)."""
    if not zipfile.is_zipfile(file):
        return False
    with zipfile.ZipFile(file) as z:
        return any("/code/" in n or n.startswith("code/") for n in z.namelist())


def _load_torchscript(file: str, spec: str) -> tuple[Predict, Any]:
    torch: Any = _import("torch", spec)
    torch.set_num_threads(1)
    try:
        module = torch.jit.load(file, map_location="cpu")
    except Exception as exc:  # a broken file: say which, whatever torch raised
        raise OptionError(f"policy {spec!r}: not a TorchScript module ({exc})") from None
    module.eval()

    def predict(obs: dict[str, npt.NDArray[Any]]) -> int:
        with torch.no_grad():
            scores = module(torch.as_tensor(obs["observation"]).unsqueeze(0))
        values = np.asarray(scores.detach().cpu().numpy(), dtype=np.float64).reshape(-1)
        values = np.where(obs["action_mask"].astype(bool), values, -np.inf)
        return int(values.argmax())

    return predict, None


def _load_maskable_ppo(file: str, spec: str, deterministic: bool) -> tuple[Predict, Any]:
    torch: Any = _import("torch", spec)
    sb3_contrib: Any = _import("sb3_contrib", spec)
    torch.set_num_threads(1)
    try:
        model = sb3_contrib.MaskablePPO.load(file, device="cpu")
    except Exception as exc:  # a broken or foreign file: say which, whatever the library raised
        raise OptionError(f"policy {spec!r}: not a MaskablePPO model ({exc})") from None

    def predict(obs: dict[str, npt.NDArray[Any]]) -> int:
        action, _ = model.predict(obs, action_masks=obs["action_mask"].astype(bool),
                                  deterministic=deterministic)
        return int(action)

    return predict, model


def _load_callable(spec: str) -> Predict:
    module_name, _, attr = spec.partition(":")
    try:
        target: Any = importlib.import_module(module_name)
        for part in attr.split("."):
            target = getattr(target, part)
    except (ImportError, AttributeError) as exc:
        raise OptionError(f"policy {spec!r}: cannot import it ({exc})") from None
    if not callable(target):
        raise OptionError(f"policy {spec!r} is not callable")
    fn: Callable[[dict[str, npt.NDArray[Any]]], Any] = target
    return lambda obs: int(fn(obs))


def load_policy(spec: str, deterministic: bool = True) -> tuple[Predict, dict[str, Any] | None]:
    """The policy ``spec`` names (see the module's docstring) and its training settings
    (``None`` for a callable). A file is loaded once per process (and again if it changes), on
    the CPU, with torch set to one thread: the arena runs a process per core."""
    if not os.path.exists(spec) and not os.path.exists(spec + ".zip") and _CALLABLE.match(spec):
        return _load_callable(spec), None
    file = spec if os.path.exists(spec) or spec.endswith(".zip") else spec + ".zip"
    if not os.path.exists(file):
        raise OptionError(f"policy {spec!r}: no such file")
    settings = load_settings(file)
    key = (os.path.abspath(file), os.path.getmtime(file), deterministic)
    loaded = _LOADED.get(key)
    if loaded is None:
        loaded = (_load_torchscript(file, spec) if _is_torchscript(file)
                  else _load_maskable_ppo(file, spec, deterministic))
        _LOADED[key] = loaded
    return loaded[0], settings


def check_settings(spec: str, settings: Mapping[str, Any], obs: Observation) -> None:
    """Refuse a game other than the one the policy was trained on (:func:`save_settings`)."""
    if settings.get("encoding") != ENCODING_VERSION:
        raise OptionError(f"policy {spec!r} was trained on encoding version {settings.get('encoding')}; "
                          f"this unokit encodes version {ENCODING_VERSION}: train it again")
    wrong = []
    if settings.get("edition") != obs.edition:
        wrong.append(f"edition {settings.get('edition')} (this game: {obs.edition})")
    if settings.get("players") != obs.players:
        wrong.append(f"{settings.get('players')} players (this game: {obs.players})")
    trained = Options.from_mapping(settings.get("options", {})).as_dict()
    now = obs.options.as_dict()
    # One-round episodes start every match at 0 points: the target is never seen.
    unseen = {"target"} if settings.get("episode") == "round" else set()
    wrong += [f"{k}={trained[k]} (this game: {now[k]})" for k in sorted(now)
              if k not in unseen and trained.get(k) != now[k]]
    if wrong:
        raise OptionError(f"policy {spec!r} was trained on {', '.join(wrong)}")


class PolicyBot:
    """Plays a trained policy (see the module's docstring)."""

    def __init__(self, spec: str, seed: int | None = None, deterministic: bool = True) -> None:
        self.name = f"policy:{spec}"
        self.path = spec
        self.deterministic = deterministic
        self._predict, self.settings = load_policy(spec, deterministic)
        self._encoder: Encoder | None = None
        self._rlcard = self.settings is not None and self.settings.get("actions") == "rlcard"
        if seed is not None:
            self.seed(seed)

    def seed(self, seed: int) -> None:
        """Seed torch's generator with ``seed`` (a sampling policy's draws; a callable holds
        no generator of this bot's)."""
        if self.settings is not None:
            torch: Any = importlib.import_module("torch")
            torch.manual_seed(seed % (2**63))

    def _encoder_for(self, obs: Observation) -> Encoder:
        enc = self._encoder
        if enc is None or (enc.edition, enc.players, enc.options) != (obs.edition, obs.players, obs.options):
            if self.settings is not None:
                check_settings(self.path, self.settings, obs)
            enc = Encoder(obs.edition, obs.players, obs.options)
            self._encoder = enc
        return enc

    def act(self, obs: Observation) -> Action | None:
        """The policy's action for ``obs`` (``None``: nothing now, out of turn)."""
        if not obs.legal:
            return None
        enc = self._encoder_for(obs)
        out = obs.turn != obs.seat
        mask = enc.mask_observation(obs, out)
        if self._rlcard and not out:
            restrict_rlcard(mask)  # the action set it was trained under
        a = self._predict({"observation": enc.encode_observation(obs, out), "action_mask": mask})
        if a == NOTHING or a not in obs.legal:
            if out:
                return None
            return obs.legal[0]  # cannot happen with a mask; never an illegal action
        return a
