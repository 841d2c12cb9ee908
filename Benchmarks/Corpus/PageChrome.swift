/// The parts of every menu-site page that carry no data: head, top bar, navigation, footer.
///
/// They are rendered because they are part of what a real page costs to read and parse: on the
/// real 2019 overview page the tests read, 14 KB of 115 KB come before the first meal, and on a
/// recipe page the chrome is about half the bytes (Sources/1-Sources/SourceAdapters/UCLAMenuSite/README.md).
enum PageChrome {
    static func top(title: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta http-equiv="Content-Type" content="text/html; charset=UTF-8">
        	    <meta http-equiv="X-UA-Compatible" content="IE=edge,chrome=1">
        	    <meta name="viewport" content="width=device-width, user-scalable=no, initial-scale=1.0, minimum-scale=1.0, maximum-scale=1.0">
                <title>\(escaped(title))</title>
        	    <meta name="description" content="UCLA Dining Services menus, nutrition and hours. Benchmark corpus rendered by Commissary from the 2016 UCLA menus dataset.">
        	    <link rel="shortcut icon" href="http://menu.dining.ucla.edu/Content/Images/favicon.ico">
        	    <link rel="stylesheet" href="/Content/main.css">
                <link rel="stylesheet" href="/Content/responsive.css">
                <link rel="stylesheet" href="/Content/print.css" media="print">
                <link rel="stylesheet" href="/Content/Menus.css">
                <link rel="stylesheet" href="/Content/RecipeNutritionFacts.css">
        	    <script type="text/javascript" src="/ClientScripts/jquery.min.js"></script>
        	    <script type="text/javascript" src="/ClientScripts/Dining.js"></script>
                <script type="text/javascript">
                    // Nav highlight
                    var sectionName = 'menus';
                </script>
            </head>
            <body class="full-page department-page">
                <div id="page-wrap">
                    <div id="top-bar" role="navigation">
                        <div id="top-bar-content">
                            <a href="http://www.ucla.edu/" id="edu-link">UCLA.edu</a>
        		            <ul id="audience-nav">
                                <li><a href="http://www.ucla.edu/students/current-students">Current Students</a></li>
                                <li><a href="http://www.ucla.edu/parents-and-families">Parents &amp; Families</a></li>
        		            </ul>
                        </div>
                    </div>
                    <div id="header" role="banner">
                        <div id="header-content">
                            <h1 id="template-logo"><a href="http://menu.dining.ucla.edu/"><img src="/Content/Images/ds-logo.png" alt="UCLA Dining Services"></a></h1>
                            <div id="header-nav">
                                <div id="main-nav-wrapper" role="navigation">
                                    <ul id="main-nav" class="main-nav-template-spacer">
                                        <li>
                                            <a id="nav-link-menus" href="http://menu.dining.ucla.edu/Pages/Menus" class="dropdown-link active">MENUS &amp; NUTRITION</a>
                                            <ul class="dropdown-wrapper" role="region" aria-live="polite">
                                                <li>
                                                    <ul class="nav-column">
                                                        <li><a href="http://menu.dining.ucla.edu/Pages/Menus">Overview</a></li>
                                                        <li><a href="http://menu.dining.ucla.edu/Menus">Residential Restaurants (All)</a></li>
                                                        <li><a href="http://menu.dining.ucla.edu/Menus/BruinCafe">Bruin Caf&eacute;</a></li>
                                                    </ul>
                                                    <ul class="nav-column">
                                                        <li><a href="http://menu.dining.ucla.edu/Menus/DeNeveLateNight">De Neve Late Night</a></li>
                                                        <li><a href="http://menu.dining.ucla.edu/Menus/BruinPlateGrabNGoBreakfast">Bruin Plate Grab &amp; Go Breakfast</a></li>
                                                    </ul>
                                                    <a href="http://menu.dining.ucla.edu/Menus" class="close">Close (X)</a>
                                                </li>
                                            </ul>
                                        </li>
                                        <li><a id="nav-link-hours" href="http://menu.dining.ucla.edu/Hours">HOURS</a></li>
                                        <li><a id="nav-link-plans" href="http://menu.dining.ucla.edu/Pages/MealPlans" class="dropdown-link">PLANS &amp; PRICING</a></li>
                                        <li><a id="nav-link-feedback" href="https://housing.ucla.edu/dining-services/comments-suggestions">FEEDBACK</a></li>
                                    </ul><!-- End Main Nav -->
                                    <div id="dropdown-spacer"></div>
                                </div><!-- End Nav -->
                            </div><!-- End Nav Group -->
                        </div>
                    </div>
                    <!-- End Header -->
                    <div id="container">
          	            <div id="main-content" role="main">

        """
    }

    static let bottom = """

                        </div><!-- main-content -->
                    </div>
                    <!-- End Container -->
                    <div id="footer-push"></div>
                </div>
                <!-- End Page Wrap -->
                <div id="footer">
                    <div id="footer-content">
                        <ul id="footer-nav">
                            <li><a href="http://ucla.edu/">UCLA.edu</a></li>
                            <li><a href="http://housing.ucla.edu/">UCLA Housing</a></li>
                        </ul>
                        <ul id="contact-info">
                          <li>UCLA Dining Services</li>
                            <li>Sproul Hall &#8739; 360 De Neve Drive</li>
                            <li>Los Angeles, CA 90095-1367</li>
                        </ul>
                     </div>
                </div>
                <!-- Version 1.3.0 10-11-13-->
            </body>
        </html>

        """
}
