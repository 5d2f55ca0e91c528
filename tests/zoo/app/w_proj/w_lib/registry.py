"""The project's registry: a class name -> class dict, and build(spec) making one from a config entry."""

REGISTRY: dict[str, type] = {}


def register(cls: type) -> type:
    REGISTRY[cls.__name__] = cls
    return cls


def build(spec: dict):
    cls = REGISTRY[spec["name"]]
    return cls(**spec.get("args", {}))
