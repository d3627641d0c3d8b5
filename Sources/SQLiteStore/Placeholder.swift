// Placeholder: replaced as the layer is built.
