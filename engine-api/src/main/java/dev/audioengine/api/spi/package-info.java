/**
 * The backend service provider interface: what a backend jar implements ({@link
 * dev.audioengine.api.spi.BackendProvider}, {@link dev.audioengine.api.spi.Backend}, device buffers and executables)
 * and the configuration, device description and errors that pass between the engine and a backend.
 */
package dev.audioengine.api.spi;
