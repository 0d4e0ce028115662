/**
 * Strict JSON for the files the engine loads (safetensors headers, tokenizer and configuration files): {@link
 * dev.audioengine.weights.json.StrictJson} reads with Jackson's streaming core and rejects duplicate keys and trailing
 * data; exported to the model families only.
 */
package dev.audioengine.weights.json;
