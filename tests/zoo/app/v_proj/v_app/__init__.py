"""v_app: trains a small classifier with Lightning Fabric from configs composed with Hydra's compose API."""
