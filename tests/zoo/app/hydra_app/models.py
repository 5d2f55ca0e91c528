"""The models the configs name by `_target_`."""


class ResNet:
    def __init__(self, depth: int, num_classes: int = 10):
        self.depth = depth
        self.num_classes = num_classes


class MLP:
    def __init__(self, in_features: int, hidden: int, num_classes: int = 10):
        self.sizes = (in_features, hidden, num_classes)
