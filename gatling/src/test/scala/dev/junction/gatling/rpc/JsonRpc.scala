package dev.junction.gatling.rpc

import io.gatling.core.Predef._
import io.gatling.http.Predef._
import io.gatling.http.request.builder.HttpRequestBuilder

/** JSON-RPC 2.0 calls on the gateway's `POST /rpc`, checked for a result rather than an error object. */
object JsonRpc {

  /** A call of `method` with `params` (a JSON value, or empty for none), recorded as `name`. */
  def call(name: String, method: String, params: String = ""): HttpRequestBuilder = {
    val paramsField = if (params.isEmpty) "" else s""","params":$params"""
    http(name)
      .post("/rpc")
      .body(StringBody(s"""{"jsonrpc":"2.0","method":"$method"$paramsField,"id":1}"""))
      .check(status.is(200), jsonPath("$.error").notExists, jsonPath("$.result").exists)
  }
}
