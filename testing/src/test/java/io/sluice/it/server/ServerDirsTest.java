package io.sluice.it.server;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class ServerDirsTest {

    @Test
    void theFirstFreshFolderOfARunRemovesTheFoldersOfEarlierRunsOnly(@TempDir Path root)
            throws Exception {
        String before = System.getProperty(ServerDirs.WORK_DIR_PROPERTY);
        System.setProperty(ServerDirs.WORK_DIR_PROPERTY, root.toString());
        try {
            Path earlier = Files.createDirectories(root.resolve("mariadb-101010-123-4567"));
            Files.writeString(earlier.resolve("ibdata1"), "data");
            Path recent = Files.createDirectories(root.resolve("kafka-101011-456-8910"));
            Path other = Files.createDirectories(root.resolve("notes"));
            FileTime longAgo = FileTime.from(Instant.now().minus(Duration.ofDays(1)));
            Files.setLastModifiedTime(earlier, longAgo);
            Files.setLastModifiedTime(other, longAgo);

            Path fresh = ServerDirs.fresh("mysql");

            assertThat(earlier).as("a folder of an earlier run").doesNotExist();
            assertThat(recent).as("a folder of this run").isDirectory();
            assertThat(other).as("a folder fresh() did not make").isDirectory();
            assertThat(fresh).isDirectory().hasParent(root);
        } finally {
            if (before == null) {
                System.clearProperty(ServerDirs.WORK_DIR_PROPERTY);
            } else {
                System.setProperty(ServerDirs.WORK_DIR_PROPERTY, before);
            }
        }
    }
}
