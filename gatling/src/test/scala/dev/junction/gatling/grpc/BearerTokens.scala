package dev.junction.gatling.grpc

import java.nio.charset.StandardCharsets
import java.time.Instant
import java.util.{Date, UUID}
import java.util.concurrent.atomic.AtomicReference

import com.nimbusds.jose.crypto.MACSigner
import com.nimbusds.jose.{JWSAlgorithm, JWSHeader}
import com.nimbusds.jwt.{JWTClaimsSet, SignedJWT}

import dev.junction.gatling.grpc.GrpcProtocol.{Credentials, SignedToken, StaticToken}

/** Supplies the bearer token of each call: the given one, or HS256 tokens minted and renewed before they expire. */
private[grpc] sealed trait BearerTokens {
  def current(): String
}

private[grpc] object BearerTokens {

  def apply(credentials: Credentials): BearerTokens = credentials match {
    case StaticToken(token) => new Given(token)
    case signed: SignedToken => new Minted(signed)
  }

  /** Fails now, naming the problem, if tokens cannot be minted with these settings. */
  def validate(signed: SignedToken): Unit = {
    require(signed.issuer != null && signed.issuer.trim.nonEmpty, "the JWT issuer is not set")
    require(signed.secret != null && signed.secret.getBytes(StandardCharsets.UTF_8).length >= 32,
      "the JWT secret must be at least 32 bytes (256 bits) for HS256")
    require(signed.ttl.toSeconds >= 2, s"the JWT lifetime must be at least 2 s, got ${signed.ttl}")
    mint(signed, Instant.now())
  }

  /** An HS256 token with `iss`, `sub`, `aud` (if set), `iat`, `exp` and a random `jti`. */
  def mint(signed: SignedToken, now: Instant): String = {
    val claims = new JWTClaimsSet.Builder()
      .issuer(signed.issuer)
      .subject(signed.subject)
      .issueTime(Date.from(now))
      .expirationTime(Date.from(now.plusSeconds(signed.ttl.toSeconds)))
      .jwtID(UUID.randomUUID().toString)
    signed.audience.foreach(claims.audience)
    val jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims.build())
    jwt.sign(new MACSigner(signed.secret.getBytes(StandardCharsets.UTF_8)))
    jwt.serialize()
  }

  private final class Given(token: String) extends BearerTokens {
    override def current(): String = token
  }

  private final class Minted(signed: SignedToken) extends BearerTokens {

    private final case class Token(value: String, renewAt: Long)

    private val token = new AtomicReference[Token](next())

    private def next(): Token = {
      val now = Instant.now()
      // renewed when three quarters of its lifetime have passed
      Token(mint(signed, now), now.toEpochMilli + signed.ttl.toMillis * 3 / 4)
    }

    override def current(): String = {
      val t = token.get()
      if (System.currentTimeMillis() < t.renewAt) t.value
      else {
        val renewed = next()
        token.compareAndSet(t, renewed)
        token.get().value
      }
    }
  }
}
