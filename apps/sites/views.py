from django.contrib.auth.views import LoginView
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from .access import role_of
from .models import Role


class RightsizeLoginView(LoginView):
    template_name = "registration/login.html"
    redirect_authenticated_user = True


def home(request: HttpRequest) -> HttpResponse:
    """Send each person to where their work is."""
    if not request.user.is_authenticated:
        return redirect("login")
    role = role_of(request.user)
    return render(request, "sites/home.html", {"role": role, "Role": Role})
