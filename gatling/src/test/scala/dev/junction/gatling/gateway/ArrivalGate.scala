package dev.junction.gatling.gateway

import io.gatling.core.Predef._
import io.gatling.core.structure.ChainBuilder

import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Path}
import java.util.concurrent.atomic.{AtomicInteger, AtomicLong}
import scala.concurrent.duration.FiniteDuration

/**
 * The arrivals an open model did not send, counted the way k6's constant-arrival-rate executor
 * counts dropped iterations. Gatling itself never drops an arrival, so this gate does: an
 * arrival is unsent when `maxInFlight` requests are already in flight (k6: every one of
 * `maxVUs` busy), or when it starts more than `lateAfter` past the end of its `during`-long
 * arrival window (the load generator fell behind its schedule).
 */
final class ArrivalGate(maxInFlight: Int, during: FiniteDuration, lateAfter: FiniteDuration) {

  private val inFlight = new AtomicInteger
  private val firstArrival = new AtomicLong
  private val arrivals = new AtomicLong
  private val busy = new AtomicLong
  private val late = new AtomicLong
  private val lastAnswer = new AtomicLong

  private val Admitted = "arrivalGate.admitted"

  /** `chain`, run only for arrivals the gate admits. */
  def guard(chain: ChainBuilder): ChainBuilder =
    exec { session =>
      val now = System.currentTimeMillis()
      firstArrival.compareAndSet(0, now)
      arrivals.incrementAndGet()
      val admitted =
        if (now - firstArrival.get() > (during + lateAfter).toMillis) { late.incrementAndGet(); false }
        else if (inFlight.incrementAndGet() > maxInFlight) { inFlight.decrementAndGet(); busy.incrementAndGet(); false }
        else true
      session.set(Admitted, admitted)
    }.doIf(session => session(Admitted).as[Boolean]) {
      exec(chain).exec { session =>
        inFlight.decrementAndGet()
        lastAnswer.accumulateAndGet(System.currentTimeMillis(), math.max(_, _))
        session
      }
    }

  /**
   * The counts as one line of JSON: arrivals, sent, unsent split by cause, and the time from the
   * first arrival to the last answer (`elapsedMs`, what an achieved rate divides by).
   */
  def summary: String = {
    val unsent = busy.get() + late.get()
    val elapsedMs = math.max(0L, lastAnswer.get() - firstArrival.get())
    s"""{"arrivals":${arrivals.get()},"sent":${arrivals.get() - unsent},"unsent":$unsent,""" +
      s""""unsentBusy":${busy.get()},"unsentLate":${late.get()},"maxInFlight":$maxInFlight,"elapsedMs":$elapsedMs}"""
  }

  /** Prints the summary and, when `file` is not empty, writes it there too. */
  def report(label: String, file: String): Unit = {
    println(s"$label unsent arrivals: $summary")
    if (file.nonEmpty) {
      val path = Path.of(file)
      Option(path.toAbsolutePath.getParent).foreach(Files.createDirectories(_))
      Files.writeString(path, summary + "\n", StandardCharsets.UTF_8)
    }
  }
}
