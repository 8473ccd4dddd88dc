"""What a runtime makes of a skill when it is invoked or listed: arguments, placeholder
substitution, the model's listing and the invocation preview (docs/design/README.md *Layering*,
docs/design/product.md *Preview*)."""
