"""Vision: frames to detections to observations of the table; ``synth`` renders scenes with exact truth."""
