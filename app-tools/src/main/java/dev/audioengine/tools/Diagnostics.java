package dev.audioengine.tools;

import dev.audioengine.cli.spi.CliTool;
import java.util.List;

/** The diagnostics this jar adds to the audioengine command: check, bench and kernels. */
public final class Diagnostics implements CliTool {

    @Override
    public List<Object> subcommands() {
        return List.of(new CheckCommand(), new BenchCommand(), new KernelsCommand());
    }
}
