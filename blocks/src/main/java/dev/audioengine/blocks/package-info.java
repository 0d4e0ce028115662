/**
 * Model building blocks on the graph API: linear and convolution layers, norms, attention, rotary positions,
 * feed-forward and encoder layers, and a bidirectional LSTM; each reads its weights by name and depends on no backend.
 */
package dev.audioengine.blocks;
