"""Readers for the file formats of the shared tasks (references, inputs, system outputs)."""
