package dev.audioengine.cli;

/** Entry point of the audioengine command. */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        System.out.println("audioengine");
    }
}
