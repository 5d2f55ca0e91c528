"""The models the configs name by `_target_`."""


class ResNet:
    def __init__(self, depth: int, num_classes: int = 10):
        self.depth = depth
        self.num_classes = num_classes


class MLP:
    def __init__(self, in_features: int, hidden: int, num_classes: int = 10):
        self.sizes = (in_features, hidden, num_classes)


class Wide:
    def __init__(self, width: int):
        if width > 1024:  # the program's own check on a value its config gives
            raise ValueError(f"width {width} is more than this model supports (1024)")
        self.width = width
