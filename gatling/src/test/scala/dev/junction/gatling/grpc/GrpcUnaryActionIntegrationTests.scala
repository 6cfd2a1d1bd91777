package dev.junction.gatling.grpc

import java.nio.file.{Files, Path, Paths}
import java.time.Instant

import scala.concurrent.duration._

import io.grpc.Status
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.TestInstance.Lifecycle
import org.junit.jupiter.api.{AfterAll, BeforeAll, Test, TestInstance}

import dev.junction.gatling.grpc.GrpcProtocol.SignedToken
import dev.junction.gatling.grpc.testing._

/**
 * Runs real Gatling simulations against real grpc-java servers on random ports and checks
 * what Gatling recorded: OK and KO counts, status codes in the error messages, channel use.
 */
@TestInstance(Lifecycle.PER_CLASS)
class GrpcUnaryActionIntegrationTests {

  private val Secret = "a-test-secret-that-is-at-least-32-bytes-long"
  private val Issuer = "https://issuer.junction.test"

  private val results: Path = Paths.get("target", "gatling-it").toAbsolutePath
  private val certificates: Path = Files.createTempDirectory("grpc-it-certs")

  private var plaintextServer: TestCalculatorServer = _
  private var servers: Seq[TestCalculatorServer] = Nil
  private var unary: GatlingRun.Result = _
  private var secure: GatlingRun.Result = _
  private var connectionsSeen: Int = _
  private var closedAtEnd: Boolean = _

  @BeforeAll
  def runSimulations(): Unit = {
    plaintextServer = TestCalculatorServer.plaintext()
    servers :+= plaintextServer
    unary = GatlingRun(classOf[UnaryCallsSimulation], results.resolve("unary"),
      Map("grpc.test.plaintext.target" -> plaintextServer.target))
    connectionsSeen = plaintextServer.connectionsSeen
    closedAtEnd = plaintextServer.awaitNoConnection(5000)

    val ca = TestCertificates.authority("test", certificates)
    val (serverCert, serverKey) = ca.issue("server")
    val (clientCert, clientKey) = ca.issue("client")
    val tls = TestCalculatorServer.tls(serverCert, serverKey)
    val mtls = TestCalculatorServer.mtls(serverCert, serverKey, ca.caCertificate)
    val jwt = TestCalculatorServer.jwt(Secret, Issuer, Some("calculator"))
    servers ++= Seq(tls, mtls, jwt)
    val token = BearerTokens.mint(SignedToken(Secret, Issuer, Some("calculator"), "test", 1.hour), Instant.now())
    secure = GatlingRun(classOf[SecureCallsSimulation], results.resolve("secure"), Map(
      "grpc.test.ca" -> ca.caCertificate.toString,
      "grpc.test.client.cert" -> clientCert.toString,
      "grpc.test.client.key" -> clientKey.toString,
      "grpc.test.tls.target" -> tls.target,
      "grpc.test.mtls.target" -> mtls.target,
      "grpc.test.jwt.target" -> jwt.target,
      "grpc.test.jwt.secret" -> Secret,
      "grpc.test.jwt.issuer" -> Issuer,
      "grpc.test.jwt.token" -> token))
  }

  @AfterAll
  def stopServers(): Unit = servers.foreach(_.close())

  @Test
  def recordsEverySuccessfulCallAsOk(): Unit = {
    assertEquals(TestSimulations.Users * TestSimulations.CallsPerUser, unary.ok("Add"))
    assertEquals(0, unary.ko("Add"))
    assertEquals(TestSimulations.Users, unary.ok("Add the saved difference"), "a response saved in the session feeds the next payload")
  }

  @Test
  def passesTheSimulationsAssertions(): Unit = assertEquals(0, unary.exitCode)

  @Test
  def treatsTheExpectedErrorStatusAsOk(): Unit = {
    assertEquals(TestSimulations.Users, unary.ok("Divide by zero, expected"))
    assertEquals(0, unary.ko("Divide by zero, expected"))
  }

  @Test
  def recordsAnErrorStatusAsKoWithItsCodeAndDescription(): Unit = {
    assertEquals(TestSimulations.Users, unary.ko("Divide by zero"))
    assertEquals(Map("INVALID_ARGUMENT: division by zero: b must not be 0" -> TestSimulations.Users),
      unary.errors("Divide by zero"))
  }

  @Test
  def recordsAnOkStatusAsKoWhenAnErrorWasExpected(): Unit =
    assertEquals(Map("expected INVALID_ARGUMENT, got OK" -> TestSimulations.Users), unary.errors("Divide, expecting an error"))

  @Test
  def recordsAFailedCheckAsKo(): Unit =
    assertEquals(Map("check failed: product is 13" -> TestSimulations.Users), unary.errors("Multiply, wrong check"))

  @Test
  def recordsAFailingPayloadAsACrashAndCarriesOn(): Unit = {
    assertEquals(0, unary.ok("Payload throws") + unary.ko("Payload throws"), "no call is made")
    assertEquals(Some(TestSimulations.Users), unary.allErrors.collectFirst {
      case (message, count) if message.startsWith("Payload throws: ") && message.contains("no operands") => count
    }, unary.allErrors.toString)
    assertEquals(TestSimulations.Users, unary.ok("Subtract, saved"), "the users went on")
  }

  @Test
  def spreadsCallsOverTheConfiguredChannelsAndClosesThemAtTheEnd(): Unit = {
    assertEquals(3, connectionsSeen, "one connection per channel")
    assertTrue(closedAtEnd, "channels are shut down when the simulation ends")
  }

  @Test
  def callsOverTlsAndMutualTls(): Unit = {
    assertEquals(10, secure.ok("TLS Add"))
    assertEquals(10, secure.ok("mTLS Add"))
  }

  @Test
  def failsWithoutAClientCertificateWhenTheServerRequiresOne(): Unit = {
    assertEquals(0, secure.ok("mTLS Add without certificate"))
    assertEquals(10, secure.ko("mTLS Add without certificate"))
    assertTrue(secure.errors("mTLS Add without certificate").keys.forall(_.startsWith(Status.Code.UNAVAILABLE.name)),
      secure.errors("mTLS Add without certificate").toString)
  }

  @Test
  def sendsMintedGivenAndPerRequestTokens(): Unit = {
    assertEquals(10, secure.ok("JWT Add minted"))
    assertEquals(10, secure.ok("JWT Add given"))
    assertEquals(10, secure.ok("JWT Add in metadata"))
  }

  @Test
  def isRefusedWithoutAValidToken(): Unit =
    for (request <- Seq("JWT Add without token", "JWT Add wrong secret", "JWT Add wrong audience")) {
      assertEquals(10, secure.ko(request), request)
      assertTrue(secure.errors(request).keys.forall(_.startsWith("UNAUTHENTICATED")), secure.errors(request).toString)
    }

  @Test
  def refusesToMintWithAShortSecret(): Unit = {
    val e = assertThrows(classOf[IllegalArgumentException], () => GrpcProtocol.Default.jwt("short", Issuer))
    assertTrue(e.getMessage.contains("32 bytes"), e.getMessage)
  }
}
