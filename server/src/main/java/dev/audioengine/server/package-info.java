/**
 * The OpenAI-compatible speech server behind {@code audioengine serve}: {@link dev.audioengine.server.SpeechServer}
 * starts it on Helidon SE with a {@link dev.audioengine.server.ServerConfig}; routes, pools and formats stay in its
 * unexported packages.
 */
package dev.audioengine.server;
