package dev.audioengine.audio;

/** Not a test: reads standard input as {@code --audio -} does and prints what came out, for {@link StandardInputTest}. */
public final class StandardInputProbe {
    public static void main(String[] args) throws Exception {
        try (AudioStream in = AudioStream.openStandardInput(System.err::println).resampleTo(16000)) {
            AudioClip clip = in.readAll();
            double sum = 0;
            for (float v : clip.samples()) sum += v;
            System.out.println(in.source() + "|" + in.format() + "|" + clip.samples().length + "|" + sum);
        } catch (AudioFormatException e) {
            System.out.println("error|" + e.getMessage());
        }
    }
}
