"""Model training (optional ``train`` extra: torch, onnx) and the shipped ONNX files."""
