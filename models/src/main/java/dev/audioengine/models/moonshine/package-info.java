/**
 * The Moonshine speech recognition family (tiny and base): the encoder-decoder network on the graph API, its checkpoint
 * layouts and tokenizer, and the recognizer that decodes with a key-value cache.
 */
package dev.audioengine.models.moonshine;
