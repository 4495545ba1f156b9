"""The synthetic renderer: labelled pictures of dice and game layouts for training and testing recognition."""

from vision.synth.scene import RenderedDie, Scene, SceneConfig, SceneConfigError, render_scene

__all__ = ["RenderedDie", "Scene", "SceneConfig", "SceneConfigError", "render_scene"]
