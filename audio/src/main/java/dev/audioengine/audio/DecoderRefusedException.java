package dev.audioengine.audio;

/**
 * A decoder that cannot read the input at all (its library is missing, or the content is not a format it knows), as
 * opposed to one that read it and found it wrong: {@link AudioDecoders} then tries the next decoder, and joins the
 * refusals into one message when every decoder refuses.
 */
final class DecoderRefusedException extends AudioFormatException {
    DecoderRefusedException(String message) {
        super(message);
    }
}
