package dev.audioengine.cli.testkit;

import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/** --log changes the JVM-wide root logger; this puts its level and its handlers' levels back after each test. */
public final class RootLoggerGuard implements BeforeEachCallback, AfterEachCallback {
    private Level rootLevel;
    private Level[] handlerLevels;

    @Override
    public void beforeEach(ExtensionContext context) {
        Logger root = Logger.getLogger("");
        rootLevel = root.getLevel();
        Handler[] hs = root.getHandlers();
        handlerLevels = new Level[hs.length];
        for (int i = 0; i < hs.length; i++) handlerLevels[i] = hs[i].getLevel();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        Logger root = Logger.getLogger("");
        root.setLevel(rootLevel);
        Handler[] hs = root.getHandlers();
        for (int i = 0; i < hs.length && i < handlerLevels.length; i++) hs[i].setLevel(handlerLevels[i]);
    }
}
