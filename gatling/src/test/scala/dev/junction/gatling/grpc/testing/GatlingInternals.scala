// Gatling keeps its launcher and its simulation.log reader package-private; these bridges
// give the gRPC extension's tests a programmatic run and the run's recorded statistics.

package io.gatling.app {

  object JunctionTestLauncher {
    /** Runs Gatling with command-line arguments in this JVM; returns its exit code. */
    def run(args: Array[String]): Int = Gatling.fromArgs(args)
  }
}

package io.gatling.charts.stats {

  import java.nio.file.Path

  import io.gatling.commons.stats.Status
  import io.gatling.core.config.GatlingConfiguration

  /** What a run recorded in its simulation.log. */
  final class JunctionTestRunData private (data: LogFileData) {

    /** How many `request` calls ended with `status`. */
    def count(request: String, status: Status): Long =
      data.requestGeneralStats(Some(request), None, Some(status)).map(_.count).getOrElse(0L)

    /** The error messages of `request`, with their counts. */
    def errors(request: String): Map[String, Int] =
      data.errors(Some(request), None).map(e => e.message -> e.count).toMap

    /** Every error message of the run, requests that could not be built included, with their counts. */
    def allErrors: Map[String, Int] = data.errors(None, None).map(e => e.message -> e.count).toMap
  }

  object JunctionTestRunData {
    def read(runDirectory: String, resultsFolder: Path): JunctionTestRunData =
      new JunctionTestRunData(LogFileReader(runDirectory, resultsFolder, GatlingConfiguration.load()).read())
  }
}
