"""A trained policy as a bot: ``policy:PATH`` in the bot registry, so that ``unokit arena
--bots policy:PATH,heuristic`` seats it like any other bot.

``PATH`` is a model saved by sb3-contrib's ``MaskablePPO`` (``model.save(PATH)``, as
``examples/train_maskable_ppo.py`` does), trained on this package's encoding for the same
number of players (``docs/rl.md``). It needs the ``train`` extra (torch, sb3-contrib), imported
only when such a bot is made. The bot encodes its :class:`~unokit.core.observation.Observation`
exactly as the environments do, masks the illegal actions, and plays the policy's most likely
action (``deterministic=False``: a sample from it); "nothing now" (175) is ``None``.
"""

from __future__ import annotations

import importlib
import os
from typing import Any

from ..core.actions import Action
from ..core.errors import OptionError
from ..core.observation import Observation
from .encoding import NOTHING, Encoder

__all__ = ["PolicyBot", "load_policy"]

_LOADED: dict[tuple[str, float], Any] = {}


def load_policy(path: str) -> Any:
    """The ``MaskablePPO`` model saved at ``path`` (``.zip`` optional), on the CPU; loaded once
    per process (and again if the file changes). Torch is set to one thread: the arena runs a
    process per core."""
    file = path if os.path.exists(path) or path.endswith(".zip") else path + ".zip"
    if not os.path.exists(file):
        raise OptionError(f"policy {path!r}: no such file")
    key = (os.path.abspath(file), os.path.getmtime(file))
    model = _LOADED.get(key)
    if model is None:
        try:
            torch: Any = importlib.import_module("torch")
            sb3_contrib: Any = importlib.import_module("sb3_contrib")
        except ImportError as exc:
            raise OptionError(f"policy {path!r} needs the train extra: pip install '.[rl,train]' in a clone of unokit "
                              f"({exc})") from None
        torch.set_num_threads(1)
        try:
            model = sb3_contrib.MaskablePPO.load(file, device="cpu")
        except Exception as exc:  # a broken or foreign file: say which, whatever the library raised
            raise OptionError(f"policy {path!r}: not a MaskablePPO model ({exc})") from None
        _LOADED[key] = model
    return model


class PolicyBot:
    """Plays a trained ``MaskablePPO`` policy (see the module's docstring)."""

    def __init__(self, path: str, seed: int | None = None, deterministic: bool = True) -> None:
        self.name = f"policy:{path}"
        self.path = path
        self.model = load_policy(path)
        self.deterministic = deterministic
        self._encoder: Encoder | None = None
        if seed is not None:
            torch: Any = importlib.import_module("torch")
            torch.manual_seed(seed % (2**63))

    def _encoder_for(self, obs: Observation) -> Encoder:
        enc = self._encoder
        if enc is None or (enc.edition, enc.players, enc.options) != (obs.edition, obs.players, obs.options):
            enc = Encoder(obs.edition, obs.players, obs.options)
            space = getattr(self.model, "observation_space", None)
            shape = None
            if space is not None and hasattr(space, "spaces") and "observation" in space.spaces:
                shape = tuple(space.spaces["observation"].shape)
            if shape is not None and shape != (enc.size,):
                raise OptionError(f"policy {self.path!r} was trained on observations of shape {shape}; "
                                  f"{obs.players} players need ({enc.size},): train it for "
                                  f"{obs.players} players")
            self._encoder = enc
        return enc

    def act(self, obs: Observation) -> Action | None:
        """The policy's action for ``obs`` (``None``: nothing now, out of turn)."""
        if not obs.legal:
            return None
        enc = self._encoder_for(obs)
        out = obs.turn != obs.seat
        mask = enc.mask_observation(obs, out)
        features = {"observation": enc.encode_observation(obs, out), "action_mask": mask}
        action, _ = self.model.predict(features, action_masks=mask.astype(bool),
                                       deterministic=self.deterministic)
        a = int(action)
        if a == NOTHING or a not in obs.legal:
            if out:
                return None
            return obs.legal[0]  # cannot happen with a mask; never an illegal action
        return a
