/**
 * The Silero VAD family (v5 and v6): the network on the graph API and the offline and streaming sessions that turn its
 * speech probabilities into speech segments.
 */
package dev.audioengine.models.silero;
