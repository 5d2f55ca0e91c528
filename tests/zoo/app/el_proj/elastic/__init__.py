"""el_proj: a small training program that launches its own 2 gloo ranks with torch's elastic agent."""
