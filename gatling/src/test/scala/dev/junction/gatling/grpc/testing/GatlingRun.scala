package dev.junction.gatling.grpc.testing

import java.nio.file.{Files, Path}

import scala.jdk.CollectionConverters._

import io.gatling.app.JunctionTestLauncher
import io.gatling.charts.stats.JunctionTestRunData
import io.gatling.commons.stats.{KO, OK}

/** Runs a simulation in this JVM, as `gatling:test` would, and reads back what it recorded in simulation.log. */
object GatlingRun {

  final case class Result(exitCode: Int, data: JunctionTestRunData) {

    def ok(request: String): Long = data.count(request, OK)

    def ko(request: String): Long = data.count(request, KO)

    /** Error messages of `request` with their counts. */
    def errors(request: String): Map[String, Int] = data.errors(request)

    /** Every error message of the run, with their counts. */
    def allErrors: Map[String, Int] = data.allErrors
  }

  def apply(simulation: Class[_], resultsFolder: Path, properties: Map[String, String]): Result = synchronized {
    Files.createDirectories(resultsFolder)
    properties.foreach { case (k, v) => System.setProperty(k, v) }
    val exitCode =
      try JunctionTestLauncher.run(Array("-s", simulation.getName, "-rf", resultsFolder.toString, "-nr"))
      finally properties.keys.foreach(System.clearProperty)
    val runs = Files.list(resultsFolder).iterator().asScala
      .filter(dir => Files.exists(dir.resolve("simulation.log")))
      .toSeq
      .sortBy(dir => Files.getLastModifiedTime(dir).toMillis)
    val run = runs.lastOption.getOrElse(throw new IllegalStateException(s"no simulation.log under $resultsFolder"))
    Result(exitCode, JunctionTestRunData.read(run.getFileName.toString, resultsFolder))
  }
}
