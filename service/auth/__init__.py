"""Who a request speaks for, as both faces need it: a bearer token's holder (``tokens``) and a browser
session's (``sessions``). Neither face owns it: the API's checks (``service.http.auth``) and the
pages (``service.web.session``) call it, and the live streams take either."""
